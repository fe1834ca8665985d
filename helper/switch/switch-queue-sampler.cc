/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "switch-queue-sampler.h"

#include "ns3/abort.h"
#include "ns3/ai-fabric-compat.h"
#include "ns3/fabric-attribute-checker.h"
#include "ns3/fabric-input-error.h"
#include "ns3/fabric-mpi.h"
#include "ns3/shared-buffer-mmu.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <ostream>
#include <sstream>

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
    Cancel(); // no row: the stream may be gone by now
    m_timeline = nullptr;
    m_tiers.clear();
    Object::DoDispose();
}

void
SwitchQueueSampler::AddSwitch(Ptr<FabricSwitch> sw, const std::string& tier)
{
    FABRIC_INPUT_ERROR_IF(!sw, "SwitchQueueSampler::AddSwitch: null switch (tier " << tier << ")");
    auto t = std::find_if(m_tiers.begin(), m_tiers.end(), [&tier](const Tier& x) {
        return x.name == tier;
    });
    if (t == m_tiers.end())
    {
        t = m_tiers.insert(m_tiers.end(), Tier{});
        t->name = tier;
    }
    // Across MPI processes another process's switch is sampled there (here it stays empty).
    Ptr<Node> node = sw->GetObject<Node>();
    if (!node || FabricMpi::IsLocal(node))
    {
        t->switches.push_back(sw);
    }
}

void
SwitchQueueSampler::Start()
{
    FABRIC_INPUT_ERROR_IF(m_tiers.empty(), "SwitchQueueSampler::Start: no switch added");
    Cancel();
    if (m_timeline)
    {
        for (Tier& t : m_tiers)
        {
            t.pauseTx = PauseFramesSent(t); // the first row counts from now
        }
    }
    Sample();
}

void
SwitchQueueSampler::Stop()
{
    if (compat::IsPending(m_event) && m_timeline)
    {
        WriteTimelineRows(); // the pauses since the last sample: the rows add up to all of them
    }
    Cancel();
}

void
SwitchQueueSampler::Cancel()
{
    if (compat::IsPending(m_event))
    {
        Simulator::Remove(m_event);
    }
}

void
SwitchQueueSampler::SetTimelineStream(std::ostream* os)
{
    m_timeline = os;
    if (!os)
    {
        return;
    }
    *os << "time_us,tier,queue_max_bytes,queue_sum_bytes,pfc_pause_frames,paused_ports\n";
    for (Tier& t : m_tiers)
    {
        t.pauseTx = PauseFramesSent(t);
    }
}

uint64_t
SwitchQueueSampler::PauseFramesSent(const Tier& t)
{
    uint64_t sent = 0;
    for (const Ptr<FabricSwitch>& sw : t.switches)
    {
        for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
        {
            for (uint64_t n : sw->GetPort(p)->GetCounters().pauseTx)
            {
                sent += n;
            }
        }
    }
    return sent;
}

void
SwitchQueueSampler::WriteRow(std::ostream& os, const std::string& tier, const Row& r)
{
    // Microseconds with 3 decimals, from the integer nanoseconds: exact and deterministic.
    os << r.ns / 1000 << '.' << std::setw(3) << std::setfill('0') << r.ns % 1000
       << std::setfill(' ') << ',' << tier << ',' << r.queueMax << ',' << r.queueSum << ','
       << r.pauses << ',' << r.paused << '\n';
}

void
SwitchQueueSampler::WriteTimelineRows()
{
    const int64_t ns = Simulator::Now().GetNanoSeconds();
    for (Tier& t : m_tiers)
    {
        Row r{ns, 0, 0, 0, 0};
        for (const Ptr<FabricSwitch>& sw : t.switches)
        {
            Ptr<SharedBufferMmu> mmu = sw->GetMmu();
            for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
            {
                const uint64_t q = mmu->GetEgressPortBytes(p);
                r.queueMax = std::max(r.queueMax, q);
                r.queueSum += q;
                r.paused += sw->GetPort(p)->GetPauseReceiver().GetPausedMask() != 0 ? 1 : 0;
            }
        }
        const uint64_t sent = PauseFramesSent(t);
        r.pauses = sent - t.pauseTx;
        t.pauseTx = sent;
        if (FabricMpi::GetSize() > 1)
        {
            m_rows.push_back(r); // Gather() merges every process's
        }
        else
        {
            WriteRow(*m_timeline, t.name, r);
        }
    }
}

void
SwitchQueueSampler::GatherTimeline()
{
    // One line per row: ns max sum pauses paused, tier by tier within a sample.
    std::ostringstream mine;
    for (const Row& r : m_rows)
    {
        mine << r.ns << ' ' << r.queueMax << ' ' << r.queueSum << ' ' << r.pauses << ' ' << r.paused
             << '\n';
    }
    const std::size_t count = m_rows.size();
    m_rows.clear();
    m_rows.shrink_to_fit();
    const std::string all = FabricMpi::Gather(mine.str());
    if (FabricMpi::GetSystemId() != 0)
    {
        return;
    }
    std::vector<Row> merged(count, Row{0, 0, 0, 0, 0});
    std::istringstream in(all);
    std::size_t line = 0;
    for (Row r{0, 0, 0, 0, 0}; in >> r.ns >> r.queueMax >> r.queueSum >> r.pauses >> r.paused;
         ++line)
    {
        NS_ABORT_MSG_IF(count == 0,
                        "SwitchQueueSampler::Gather: another process wrote timeline rows, "
                        "process 0 none");
        Row& m = merged[line % count];
        NS_ABORT_MSG_IF(line >= count && m.ns != r.ns,
                        "SwitchQueueSampler::Gather: timeline row "
                            << line % count << " is at " << r.ns << " ns in process "
                            << line / count << ", at " << m.ns << " ns in process 0");
        m.ns = r.ns;
        m.queueMax = std::max(m.queueMax, r.queueMax);
        m.queueSum += r.queueSum;
        m.pauses += r.pauses;
        m.paused += r.paused;
    }
    NS_ABORT_MSG_IF(line != count * FabricMpi::GetSize(),
                    "SwitchQueueSampler::Gather: "
                        << line << " timeline rows from " << FabricMpi::GetSize()
                        << " processes, expected " << count << " from each");
    for (std::size_t i = 0; i < merged.size(); ++i)
    {
        WriteRow(*m_timeline, m_tiers[i % m_tiers.size()].name, merged[i]);
    }
    m_timeline->flush();
}

void
SwitchQueueSampler::Count(Tier& t, uint64_t q) const
{
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

void
SwitchQueueSampler::Sample()
{
    Held* held = nullptr;
    if (m_histograms && m_holding)
    {
        CausalOrderScheduler* order = CausalOrderScheduler::GetCurrent();
        NS_ABORT_MSG_IF(!order, "SwitchQueueSampler::Hold needs ns3::CausalOrderScheduler");
        m_held.emplace_back();
        held = &m_held.back();
        held->key = order->GetRunningKey(&held->ts);
    }
    // After EndHistograms() a sample is a timeline row only.
    if (m_histograms)
    {
        for (Tier& t : m_tiers)
        {
            for (const Ptr<FabricSwitch>& sw : t.switches)
            {
                Ptr<SharedBufferMmu> mmu = sw->GetMmu();
                for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
                {
                    const uint64_t q = mmu->GetEgressPortBytes(p);
                    if (held)
                    {
                        held->bytes.push_back(q);
                    }
                    else
                    {
                        Count(t, q);
                    }
                }
            }
        }
    }
    if (m_timeline)
    {
        WriteTimelineRows();
    }
    m_event = Simulator::Schedule(m_interval, &SwitchQueueSampler::Sample, this);
}

void
SwitchQueueSampler::Hold()
{
    m_holding = true;
}

void
SwitchQueueSampler::EndHistograms()
{
    m_histograms = false;
}

void
SwitchQueueSampler::Settle(uint64_t ts, const CausalKey& key)
{
    auto before = [ts, &key](const Held& h) {
        if (h.ts != ts)
        {
            return h.ts < ts;
        }
        if (h.key.createdTs != key.createdTs)
        {
            return h.key.createdTs < key.createdTs;
        }
        return h.key.creator < key.creator; // same creator: the end came first (it ends them)
    };
    for (const Held& h : m_held)
    {
        if (!before(h))
        {
            continue;
        }
        std::size_t i = 0;
        for (Tier& t : m_tiers)
        {
            for (const Ptr<FabricSwitch>& sw : t.switches)
            {
                for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
                {
                    Count(t, h.bytes[i++]);
                }
            }
        }
    }
    m_held.clear();
    m_held.shrink_to_fit();
    m_holding = false;
}

void
SwitchQueueSampler::Gather()
{
    if (FabricMpi::GetSize() == 1)
    {
        return;
    }
    if (m_timeline)
    {
        GatherTimeline();
    }
    // One line per tier: name samples max sum bins...
    std::ostringstream mine;
    for (const Tier& t : m_tiers)
    {
        mine << t.name << ' ' << t.samples << ' ' << t.max << ' '
             << static_cast<uint64_t>(t.sum) // whole bytes: exact below 2^53
             << ' ' << t.bins.size();
        for (uint64_t b : t.bins)
        {
            mine << ' ' << b;
        }
        mine << '\n';
    }
    const std::string all = FabricMpi::Gather(mine.str());
    if (FabricMpi::GetSystemId() != 0)
    {
        return;
    }
    for (Tier& t : m_tiers)
    {
        t.bins.clear();
        t.samples = 0;
        t.max = 0;
        t.sum = 0;
    }
    std::istringstream in(all);
    std::size_t row = 0;
    for (std::string line; std::getline(in, line); ++row)
    {
        std::istringstream fields(line);
        std::string name;
        uint64_t samples = 0;
        uint64_t max = 0;
        uint64_t sum = 0;
        std::size_t bins = 0;
        fields >> name >> samples >> max >> sum >> bins;
        Tier& t = m_tiers[row % m_tiers.size()];
        NS_ABORT_MSG_IF(!fields || name != t.name,
                        "SwitchQueueSampler::Gather: process "
                            << row / m_tiers.size() << " sampled tier '" << name
                            << "' where this one has '" << t.name << "'");
        t.samples += samples;
        t.max = std::max(t.max, max);
        t.sum += double(sum);
        t.bins.resize(std::max(t.bins.size(), bins), 0);
        for (std::size_t b = 0; b < bins; ++b)
        {
            uint64_t n = 0;
            fields >> n;
            t.bins[b] += n;
        }
    }
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
