/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "conga-load-balancer.h"

#include "ns3/double.h"
#include "ns3/fabric-attribute-checker.h"
#include "ns3/fabric-input-error.h"
#include "ns3/fabric-wire-header.h"
#include "ns3/log.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CongaLoadBalancer");

NS_OBJECT_ENSURE_REGISTERED(CongaLoadBalancer);

namespace
{
/// LBTags a leaf can have (4 bits).
constexpr uint32_t MAX_TAGS = 16;
/// Decay steps kept in the table; after more the register is 0.
constexpr uint32_t DECAY_STEPS = 64;
} // namespace

TypeId
CongaLoadBalancer::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::CongaLoadBalancer")
            .SetParent<FlowletLoadBalancer>()
            .SetGroupName("AiFabric")
            .AddConstructor<CongaLoadBalancer>()
            .AddAttribute(
                "DreInterval",
                "Decay period of the discounting rate estimators (>= 1 ns); with "
                "Alpha it sets their time constant, DreInterval / Alpha (10 us by "
                "default, about one unloaded RTT of a 400 Gb/s two-tier fabric).",
                TimeValue(MicroSeconds(2)),
                MakeTimeAccessor(&CongaLoadBalancer::m_dreInterval),
                MakeFabricTimeChecker("ns3::CongaLoadBalancer::DreInterval", NanoSeconds(1)))
            .AddAttribute("Alpha",
                          "Fraction of a DRE register lost per DreInterval, (0, 1].",
                          DoubleValue(0.2),
                          MakeDoubleAccessor(&CongaLoadBalancer::m_alpha),
                          MakeFabricChecker<DoubleValue>(
                              MakeDoubleChecker<double>(),
                              "ns3::CongaLoadBalancer::Alpha",
                              [](const double& a) { return a > 0 && a <= 1; },
                              "(0, 1]",
                              [](const double& a) { return std::to_string(a); }))
            .AddAttribute(
                "MetricAging",
                "A remote congestion metric is held this long, then decays by one step every "
                "further MetricAging (a 7 counts as 0 after 8 x MetricAging); the destination "
                "leaf feeds back only metrics younger than this (>= 1 ns).",
                TimeValue(MicroSeconds(100)),
                MakeTimeAccessor(&CongaLoadBalancer::m_aging),
                MakeFabricTimeChecker("ns3::CongaLoadBalancer::MetricAging", NanoSeconds(1)));
    return tid;
}

CongaLoadBalancer::CongaLoadBalancer()
    : m_dreInterval(MicroSeconds(2)),
      m_alpha(0.2),
      m_aging(MicroSeconds(100))
{
    NS_LOG_FUNCTION(this);
}

CongaLoadBalancer::~CongaLoadBalancer()
{
    NS_LOG_FUNCTION(this);
}

uint16_t
CongaLoadBalancer::Pack(uint32_t tag, uint32_t ce, bool fb, uint32_t fbTag, uint32_t fbMetric)
{
    uint16_t v =
        VALID | static_cast<uint16_t>((tag & 0xF) << 11) | static_cast<uint16_t>((ce & 0x7) << 8);
    if (fb)
    {
        v |= FB_VALID | static_cast<uint16_t>((fbTag & 0xF) << 3) |
             static_cast<uint16_t>(fbMetric & 0x7);
    }
    return v;
}

void
CongaLoadBalancer::SetFabricInfo(const SwitchFabricInfo& info)
{
    const uint32_t ports = static_cast<uint32_t>(info.rates.size());
    // Again with the same shape (a cable's rate changed): keep the estimators and tables.
    const bool again = !m_dre.empty() && m_dre.size() == ports && m_leaves == info.leaves &&
                       m_info.leaf == info.leaf && m_info.hostPort == info.hostPort;
    m_info = info;
    m_tagOfPort.assign(ports, -1);
    m_uplinks = 0;
    if (info.leaf != SwitchFabricInfo::NOT_A_LEAF)
    {
        for (uint32_t p = 0; p < ports; ++p)
        {
            if (p >= info.hostPort.size() || !info.hostPort[p])
            {
                m_tagOfPort[p] = static_cast<int32_t>(m_uplinks++);
            }
        }
        FABRIC_INPUT_ERROR_IF(m_uplinks > MAX_TAGS,
                              "CongaLoadBalancer: leaf " << info.leaf << " has " << m_uplinks
                                                         << " uplinks; CONGA's LBTag is 4 bits, "
                                                            "valid range is 1..16 uplinks");
    }
    m_leaves = info.leaves;
    m_fullScale.resize(ports);
    for (uint32_t p = 0; p < ports; ++p)
    {
        m_fullScale[p] =
            double(info.rates[p].GetBitRate()) / 8 * m_dreInterval.GetSeconds() / m_alpha;
    }
    m_decay.resize(DECAY_STEPS);
    for (uint32_t k = 0; k < DECAY_STEPS; ++k)
    {
        m_decay[k] = std::pow(1 - m_alpha, double(k));
    }
    if (again)
    {
        return;
    }
    m_dre.assign(ports, Dre{});
    m_toLeaf.assign(size_t(m_leaves) * m_uplinks, Metric{});
    m_fromLeaf.assign(size_t(m_leaves) * MAX_TAGS, Metric{});
    m_nextFeedback.assign(m_leaves, 0);
}

bool
CongaLoadBalancer::WantsEgressHook() const
{
    return true;
}

uint32_t
CongaLoadBalancer::LeafOf(uint32_t ip) const
{
    if (!m_info.leafOfIp)
    {
        return SwitchFabricInfo::NOT_A_LEAF;
    }
    auto it = m_info.leafOfIp->find(ip);
    return it == m_info.leafOfIp->end() || it->second >= m_leaves ? SwitchFabricInfo::NOT_A_LEAF
                                                                  : it->second;
}

CongaLoadBalancer::Dre&
CongaLoadBalancer::Decay(uint32_t port, int64_t now)
{
    Dre& d = m_dre[port];
    const int64_t period = now / m_dreInterval.GetTimeStep();
    const int64_t k = period - d.period;
    if (k > 0)
    {
        d.bytes *= k < int64_t(DECAY_STEPS) ? m_decay[k] : 0.0;
        d.period = period;
    }
    return d;
}

uint8_t
CongaLoadBalancer::GetLocalMetric(uint32_t port, Time now)
{
    NS_ABORT_MSG_IF(port >= m_dre.size(),
                    "CongaLoadBalancer: port " << port << " is unknown; the switch has "
                                               << m_dre.size()
                                               << " ports (SetFabricInfo was not called: "
                                                  "install it with a topology helper)");
    const Dre& d = Decay(port, now.GetTimeStep());
    const double q = 8 * d.bytes / m_fullScale[port];
    return static_cast<uint8_t>(std::min(7.0, std::floor(q)));
}

uint8_t
CongaLoadBalancer::GetRemoteMetric(uint32_t leaf, uint32_t tag, Time now) const
{
    if (leaf >= m_leaves || tag >= m_uplinks)
    {
        return 0;
    }
    const Metric& m = m_toLeaf[size_t(leaf) * m_uplinks + tag];
    if (!m.valid)
    {
        return 0;
    }
    // Held for MetricAging, then one step lower every further MetricAging.
    const int64_t steps = (now.GetTimeStep() - m.at) / m_aging.GetTimeStep();
    return steps >= int64_t(m.value) ? 0 : static_cast<uint8_t>(m.value - steps);
}

const CongaCounters&
CongaLoadBalancer::GetCongaCounters() const
{
    return m_conga;
}

void
CongaLoadBalancer::OnEgress(uint8_t* ipv4,
                            const SwitchFlowKey& key,
                            uint32_t outPort,
                            uint32_t bytes,
                            Time now)
{
    const int64_t t = now.GetTimeStep();
    if (outPort >= m_dre.size())
    {
        return; // no fabric information (a switch outside a topology helper)
    }
    Decay(outPort, t).bytes += bytes;
    const bool leaf = m_info.leaf != SwitchFabricInfo::NOT_A_LEAF;
    const bool fromHost =
        leaf && key.ingressPort < m_info.hostPort.size() && m_info.hostPort[key.ingressPort];
    const bool toHost = leaf && outPort < m_info.hostPort.size() && m_info.hostPort[outPort];
    const uint16_t id = wire::GetU16(ipv4 + 4);
    if (fromHost && !toHost)
    {
        // Source leaf: stamp LBTag and CE, piggyback one feedback entry for the destination.
        const uint32_t dstLeaf = LeafOf(key.dstIp);
        bool fb = false;
        uint32_t fbTag = 0;
        uint32_t fbMetric = 0;
        if (dstLeaf != SwitchFabricInfo::NOT_A_LEAF)
        {
            // Round robin over the entries, those changed since they were last fed back first
            // (CONGA section 3.3); only what this leaf saw within MetricAging: feeding back
            // an old value would refresh it at the source, which would then never probe that
            // path again.
            for (uint32_t pass = 0; pass < 2 && !fb; ++pass)
            {
                for (uint32_t i = 0; i < MAX_TAGS && !fb; ++i)
                {
                    const uint32_t tag = (m_nextFeedback[dstLeaf] + i) % MAX_TAGS;
                    Metric& m = m_fromLeaf[size_t(dstLeaf) * MAX_TAGS + tag];
                    if (m.valid && t - m.at <= m_aging.GetTimeStep() &&
                        (pass == 1 || m.value != m.fedBack))
                    {
                        fb = true;
                        fbTag = tag;
                        fbMetric = m.value;
                        m.fedBack = m.value;
                        m_nextFeedback[dstLeaf] = static_cast<uint8_t>((tag + 1) % MAX_TAGS);
                    }
                }
            }
        }
        wire::PutU16(ipv4 + 4,
                     Pack(static_cast<uint32_t>(m_tagOfPort[outPort]),
                          GetLocalMetric(outPort, now),
                          fb,
                          fbTag,
                          fbMetric));
        ++m_conga.stamped;
        m_conga.feedbackSent += fb;
        return;
    }
    if (!(id & VALID))
    {
        return;
    }
    if (toHost)
    {
        // Destination leaf: record the path's congestion and take the feedback, then give
        // the host the field as it would see it without an overlay.
        const uint32_t srcLeaf = LeafOf(key.srcIp);
        if (srcLeaf != SwitchFabricInfo::NOT_A_LEAF)
        {
            Metric& from = m_fromLeaf[size_t(srcLeaf) * MAX_TAGS + ((id >> 11) & 0xF)];
            from.at = t;
            from.value = static_cast<uint8_t>((id >> 8) & 0x7);
            from.valid = true;
            ++m_conga.ceUpdates;
            const uint32_t fbTag = (id >> 3) & 0xF;
            if ((id & FB_VALID) && fbTag < m_uplinks)
            {
                Metric& to = m_toLeaf[size_t(srcLeaf) * m_uplinks + fbTag];
                to.at = t;
                to.value = static_cast<uint8_t>(id & 0x7);
                to.valid = true;
                ++m_conga.feedbackUsed;
            }
        }
        wire::PutU16(ipv4 + 4, 0);
        return;
    }
    // Transit: CE is the largest congestion on the path.
    const uint16_t ce = (id >> 8) & 0x7;
    const uint16_t local = GetLocalMetric(outPort, now);
    if (local > ce)
    {
        wire::PutU16(ipv4 + 4, static_cast<uint16_t>((id & ~0x0700) | (local << 8)));
    }
}

uint32_t
CongaLoadBalancer::ChoosePath(const SwitchFlowKey& key,
                              uint32_t,
                              const uint32_t* ports,
                              uint32_t n,
                              uint32_t previous,
                              Time now)
{
    const uint32_t dstLeaf = m_info.leaf != SwitchFabricInfo::NOT_A_LEAF
                                 ? LeafOf(key.dstIp)
                                 : SwitchFabricInfo::NOT_A_LEAF;
    if (m_local.size() < n)
    {
        m_local.resize(n); // grows to the largest ECMP group, then never again
        m_path.resize(n);
    }
    // Path metric max(local, remote); the smallest wins, the previous port on a tie, else a
    // random one among the ties (CONGA section 3.4).
    uint8_t best = 8;
    uint8_t bestLocal = 8;
    uint32_t ties = 0;
    for (uint32_t i = 0; i < n; ++i)
    {
        const uint8_t local = m_local[i] = GetLocalMetric(ports[i], now);
        const int32_t tag = ports[i] < m_tagOfPort.size() ? m_tagOfPort[ports[i]] : -1;
        const uint8_t m = m_path[i] =
            dstLeaf != SwitchFabricInfo::NOT_A_LEAF && tag >= 0
                ? std::max(local, GetRemoteMetric(dstLeaf, uint32_t(tag), now))
                : local;
        if (m < best)
        {
            best = m;
            ties = 0;
        }
        ties += m == best;
        bestLocal = std::min(bestLocal, local);
    }
    // Counted when a port that is locally among the least loaded loses by its remote metric.
    for (uint32_t i = 0; i < n; ++i)
    {
        if (m_local[i] == bestLocal && m_path[i] > best)
        {
            ++m_conga.remoteChoices;
            break;
        }
    }
    if (previous < n && m_path[previous] == best)
    {
        return previous;
    }
    uint32_t k = ties > 1 ? DrawIndex(ties) : 0;
    for (uint32_t i = 0; i < n; ++i)
    {
        if (m_path[i] == best && k-- == 0)
        {
            return i;
        }
    }
    NS_ASSERT_MSG(false, "unreachable: a least-congested path exists");
    return 0;
}

} // namespace ns3
