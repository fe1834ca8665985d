/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "switch-queue-sampler.h"

#include "ns3/abort.h"
#include "ns3/ai-fabric-compat.h"
#include "ns3/fabric-attribute-checker.h"
#include "ns3/shared-buffer-mmu.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <cmath>
#include <ostream>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(SwitchQueueSampler);

TypeId
SwitchQueueSampler::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::SwitchQueueSampler")
            .SetParent<Object>()
            .SetGroupName("AiFabric")
            .AddConstructor<SwitchQueueSampler>()
            .AddAttribute(
                "Interval",
                "Time between two samples of every port, >= 1 ns.",
                TimeValue(MicroSeconds(10)),
                MakeTimeAccessor(&SwitchQueueSampler::m_interval),
                MakeFabricTimeChecker("ns3::SwitchQueueSampler::Interval", NanoSeconds(1)))
            .AddAttribute(
                "BinBytes",
                "Histogram resolution of the percentiles, bytes, >= 1.",
                UintegerValue(1000),
                MakeUintegerAccessor(&SwitchQueueSampler::m_binBytes),
                MakeFabricUintegerChecker<uint64_t>("ns3::SwitchQueueSampler::BinBytes", 1));
    return tid;
}

SwitchQueueSampler::SwitchQueueSampler()
    : m_interval(MicroSeconds(10)),
      m_binBytes(1000)
{
}

SwitchQueueSampler::~SwitchQueueSampler() = default;

void
SwitchQueueSampler::DoDispose()
{
    Stop();
    m_tiers.clear();
    Object::DoDispose();
}

void
SwitchQueueSampler::AddSwitch(Ptr<FabricSwitch> sw, const std::string& tier)
{
    NS_ABORT_MSG_IF(!sw, "SwitchQueueSampler::AddSwitch: null switch (tier " << tier << ")");
    for (Tier& t : m_tiers)
    {
        if (t.name == tier)
        {
            t.switches.push_back(sw);
            return;
        }
    }
    Tier t;
    t.name = tier;
    t.switches.push_back(sw);
    m_tiers.push_back(t);
}

void
SwitchQueueSampler::Start()
{
    NS_ABORT_MSG_IF(m_tiers.empty(), "SwitchQueueSampler::Start: no switch added");
    Stop();
    Sample();
}

void
SwitchQueueSampler::Stop()
{
    if (compat::IsPending(m_event))
    {
        Simulator::Remove(m_event);
    }
}

void
SwitchQueueSampler::Sample()
{
    for (Tier& t : m_tiers)
    {
        for (const Ptr<FabricSwitch>& sw : t.switches)
        {
            Ptr<SharedBufferMmu> mmu = sw->GetMmu();
            for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
            {
                const uint64_t q = mmu->GetEgressPortBytes(p);
                const uint64_t bin = q == 0 ? 0 : (q - 1) / m_binBytes + 1; // bin 0: empty
                if (bin >= t.bins.size())
                {
                    t.bins.resize(bin + 1, 0);
                }
                t.bins[bin]++;
                t.samples++;
                t.max = std::max(t.max, q);
                t.sum += double(q);
            }
        }
    }
    m_event = Simulator::Schedule(m_interval, &SwitchQueueSampler::Sample, this);
}

std::vector<std::string>
SwitchQueueSampler::GetTiers() const
{
    std::vector<std::string> names;
    for (const Tier& t : m_tiers)
    {
        names.push_back(t.name);
    }
    return names;
}

SwitchQueueStats
SwitchQueueSampler::GetStats(const std::string& tier) const
{
    SwitchQueueStats s;
    for (const Tier& t : m_tiers)
    {
        if (t.name != tier || t.samples == 0)
        {
            continue;
        }
        s.samples = t.samples;
        s.max = t.max;
        s.mean = t.sum / double(t.samples);
        auto percentile = [&t, this](double p) {
            const auto rank =
                static_cast<uint64_t>(std::ceil(p / 100.0 * double(t.samples) - 1e-9));
            uint64_t seen = 0;
            for (std::size_t b = 0; b < t.bins.size(); ++b)
            {
                seen += t.bins[b];
                if (seen >= std::max<uint64_t>(rank, 1))
                {
                    return std::min<uint64_t>(b * m_binBytes, t.max); // bin b: (b-1, b] x bin
                }
            }
            return t.max;
        };
        s.p50 = percentile(50);
        s.p95 = percentile(95);
        s.p99 = percentile(99);
    }
    return s;
}

void
SwitchQueueSampler::WriteCsv(std::ostream& os) const
{
    os << "tier,samples,max_bytes,p50_bytes,p95_bytes,p99_bytes,mean_bytes\n";
    for (const Tier& t : m_tiers)
    {
        const SwitchQueueStats s = GetStats(t.name);
        os << t.name << ',' << s.samples << ',' << s.max << ',' << s.p50 << ',' << s.p95 << ','
           << s.p99 << ',' << static_cast<uint64_t>(std::llround(s.mean)) << '\n';
    }
}

} // namespace ns3
