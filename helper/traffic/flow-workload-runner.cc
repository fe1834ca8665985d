/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "flow-workload-runner.h"

#include "ns3/abort.h"
#include "ns3/fabric-switch.h"
#include "ns3/fabric-time.h"
#include "ns3/object-factory.h"
#include "ns3/pfc-channel.h"
#include "ns3/roce-aeth-header.h"
#include "ns3/roce-bth-header.h"
#include "ns3/roce-icrc-trailer.h"
#include "ns3/roce-nic.h"
#include "ns3/roce-reth-header.h"
#include "ns3/simulator.h"
#include "ns3/type-id.h"

#include <algorithm>

namespace ns3
{

namespace
{

/// IPv4 + UDP, bytes.
constexpr uint32_t IP_UDP = 20 + 8;
/// FCS + preamble + inter-frame gap, bytes.
constexpr uint32_t FRAMING =
    PfcNetDevice::FCS_BYTES + PfcNetDevice::PREAMBLE_BYTES + PfcNetDevice::IFG_BYTES;
/// Most links a path may have before GetPath gives up (a routing loop).
constexpr uint32_t MAX_PATH_LINKS = 64;

/// \return the time \p bytes take at \p rate
Time
Tx(uint64_t bytes, DataRate rate)
{
    return BytesTxTime(bytes, rate);
}

} // namespace

FlowWorkloadRunner::FlowWorkloadRunner(Ptr<FabricTopologyHelper> topo, Ptr<FlowSource> source)
    : m_topo(topo),
      m_source(source)
{
    NS_ABORT_MSG_IF(!topo, "FlowWorkloadRunner: null topology");
    NS_ABORT_MSG_IF(!source, "FlowWorkloadRunner: null flow source");
}

FlowWorkloadRunner::~FlowWorkloadRunner() = default;

void
FlowWorkloadRunner::SetRecordCallback(RecordCallback cb)
{
    m_recordCb = cb;
}

void
FlowWorkloadRunner::SetFinishedCallback(Callback<void> cb)
{
    m_finishedCb = cb;
}

void
FlowWorkloadRunner::MaybeFinished()
{
    if (m_exhausted && !m_hasNext && GetActive() == 0 && !m_finishedCb.IsNull())
    {
        Callback<void> cb = m_finishedCb;
        m_finishedCb = Callback<void>();
        cb();
    }
}

FlowFctSummary&
FlowWorkloadRunner::GetSummary()
{
    return m_summary;
}

void
FlowWorkloadRunner::Start()
{
    NS_ABORT_MSG_IF(m_started, "FlowWorkloadRunner::Start called twice");
    m_started = true;
    NS_ABORT_MSG_IF(m_topo->GetNRanks() == 0 || !m_topo->GetRank(0)->GetObject<RoceNic>(),
                    "FlowWorkloadRunner: the topology's hosts have no RoceNic (Transports "
                    "must include roce); Ultra Ethernet flows run with UetMatrixRunner");
    Ptr<RoceNic> nic = m_topo->GetRank(0)->GetObject<RoceNic>();
    TypeIdValue cc;
    nic->GetAttribute("CongestionControl", cc);
    ObjectFactory f;
    f.SetTypeId(cc.Get());
    m_ccName = f.Create<FabricCongestionOps>()->GetName();
    if (m_stopped)
    {
        MaybeFinished(); // stopped before it started: no flow
        return;
    }
    ScheduleNext();
}

void
FlowWorkloadRunner::StopArrivals()
{
    if (m_stopped)
    {
        return;
    }
    m_stopped = true;
    m_exhausted = true;
    if (m_hasNext)
    {
        m_nextEvent.Cancel();
        m_hasNext = false;
    }
    if (m_started)
    {
        MaybeFinished();
    }
}

bool
FlowWorkloadRunner::IsStopped() const
{
    return m_stopped;
}

void
FlowWorkloadRunner::ScheduleNext()
{
    std::optional<FlowSpec> f = m_source->Next();
    if (!f)
    {
        m_exhausted = true;
        MaybeFinished();
        return;
    }
    const uint32_t n = m_topo->GetNRanks();
    NS_ABORT_MSG_IF(f->src >= n || f->dst >= n,
                    "FlowWorkloadRunner: flow " << f->id << " goes from host " << f->src
                                                << " to host " << f->dst << "; valid hosts are 0.."
                                                << n - 1);
    NS_ABORT_MSG_IF(f->src == f->dst,
                    "FlowWorkloadRunner: flow " << f->id << " goes from host " << f->src
                                                << " to itself; valid flows join two hosts");
    NS_ABORT_MSG_IF(f->sizeBytes == 0,
                    "FlowWorkloadRunner: flow " << f->id << " has 0 bytes; valid sizes are >= 1");
    NS_ABORT_MSG_IF(f->start < m_lastStart,
                    "FlowWorkloadRunner: flow " << f->id << " starts at " << f->start.As(Time::US)
                                                << ", before the flow "
                                                << "read before it (" << m_lastStart.As(Time::US)
                                                << "); a source must give flows in start order");
    m_lastStart = f->start;
    m_next = *f;
    m_hasNext = true;
    const Time now = Simulator::Now();
    m_nextEvent = Simulator::Schedule(m_next.start > now ? m_next.start - now : Time(0),
                                      &FlowWorkloadRunner::StartFlow,
                                      this);
}

void
FlowWorkloadRunner::StartFlow()
{
    NS_ASSERT(m_hasNext);
    m_hasNext = false;
    Active a;
    a.spec = m_next;
    auto& idle = m_idle[PairKey(a.spec.src, a.spec.dst)];
    const FlowPath path = GetPath(a.spec.src, a.spec.dst);
    a.ideal = IdealFct(path, a.spec.src, a.spec.dst, a.spec.sizeBytes);
    a.pathRtt = UnloadedRtt(path, a.spec.src, a.spec.dst);
    if (idle.empty())
    {
        a.qps = m_topo->Connect(a.spec.src, a.spec.dst, 1)[0];
        ++m_qpPairs;
        // Tell the algorithms the path's RTT (idle pairs got it when they were renewed).
        RenewCongestionControl(a);
    }
    else
    {
        a.qps = idle.back();
        idle.pop_back();
    }
    a.retxBefore = a.qps.first->GetCounters().retransmittedPackets;
    uint32_t slot;
    if (m_freeSlots.empty())
    {
        slot = static_cast<uint32_t>(m_active.size());
        m_active.push_back(a);
    }
    else
    {
        slot = m_freeSlots.back();
        m_freeSlots.pop_back();
        m_active[slot] = a;
    }
    ++m_startedFlows;
    m_maxActive = std::max(m_maxActive, GetActive());
    m_active[slot].qps.first->PostWrite(
        a.spec.sizeBytes,
        0,
        1,
        MakeCallback(&FlowWorkloadRunner::Completed, this).Bind(slot));
    ScheduleNext();
}

void
FlowWorkloadRunner::Completed(uint32_t slot, const RoceWorkCompletion& wc)
{
    Active& a = m_active[slot];
    FlowFctRecord r;
    r.id = a.spec.id;
    r.src = a.spec.src;
    r.dst = a.spec.dst;
    r.sizeBytes = a.spec.sizeBytes;
    r.start = wc.postTime;
    r.end = wc.endTime;
    r.ideal = a.ideal;
    r.retransmissions = a.qps.first->GetCounters().retransmittedPackets - a.retxBefore;
    r.ok = wc.status == RoceWcStatus::SUCCESS;
    r.transport = "roce";
    r.cc = m_ccName;
    ++m_finished;
    m_failed += r.ok ? 0 : 1;
    m_summary.Add(r);
    if (!m_recordCb.IsNull())
    {
        m_recordCb(r);
    }
    if (r.ok)
    {
        // Back to the pool as a new connection would be: fresh congestion control.
        RenewCongestionControl(a);
        m_idle[PairKey(a.spec.src, a.spec.dst)].push_back(a.qps);
    }
    a.qps = {};
    m_freeSlots.push_back(slot);
    MaybeFinished();
}

uint64_t
FlowWorkloadRunner::GetStarted() const
{
    return m_startedFlows;
}

uint64_t
FlowWorkloadRunner::GetFinished() const
{
    return m_finished;
}

uint64_t
FlowWorkloadRunner::GetActive() const
{
    return m_startedFlows - m_finished;
}

uint64_t
FlowWorkloadRunner::GetMaxActive() const
{
    return m_maxActive;
}

uint64_t
FlowWorkloadRunner::GetQpPairs() const
{
    return m_qpPairs;
}

bool
FlowWorkloadRunner::AllCompleted() const
{
    return m_started && m_exhausted && !m_hasNext && GetActive() == 0 && m_failed == 0;
}

FlowPath
FlowWorkloadRunner::GetPath(uint32_t src, uint32_t dst) const
{
    const auto ports = m_topo->GetConnectionPorts(src, dst);
    Ptr<RoceNic> srcNic = m_topo->GetRank(src)->GetObject<RoceNic>();
    Ptr<RoceNic> dstNic = m_topo->GetRank(dst)->GetObject<RoceNic>();
    NS_ABORT_MSG_IF(!srcNic || !dstNic,
                    "FlowWorkloadRunner::GetPath: rank " << (srcNic ? dst : src)
                                                         << " has no RoceNic");
    const uint32_t dstIp = dstNic->GetAddress(ports.second).Get();
    Ptr<Node> dstNode = m_topo->GetRank(dst);
    FlowPath path;
    Ptr<PfcNetDevice> dev = srcNic->GetCore()->GetPort(ports.first);
    for (uint32_t hop = 0; hop < MAX_PATH_LINKS; ++hop)
    {
        Ptr<PfcChannel> ch = DynamicCast<PfcChannel>(dev->GetChannel());
        NS_ABORT_MSG_IF(!ch,
                        "FlowWorkloadRunner::GetPath: a device of node "
                            << dev->GetNode()->GetId() << " on the path from rank " << src
                            << " to rank " << dst << " is not cabled");
        path.rates.push_back(dev->GetDataRate());
        path.delays.push_back(ch->GetDelay());
        Ptr<NetDevice> peer = ch->GetDevice(0) == dev ? ch->GetDevice(1) : ch->GetDevice(0);
        Ptr<Node> node = peer->GetNode();
        if (node == dstNode)
        {
            return path;
        }
        Ptr<FabricSwitch> sw = node->GetObject<FabricSwitch>();
        NS_ABORT_MSG_IF(!sw,
                        "FlowWorkloadRunner::GetPath: the path from rank "
                            << src << " to rank " << dst << " reaches node " << node->GetId()
                            << ", neither a switch nor the destination");
        const uint32_t* out = nullptr;
        uint32_t n = 0;
        NS_ABORT_MSG_IF(!sw->GetForwardingTable()->Lookup(dstIp, out, n) || n == 0,
                        "FlowWorkloadRunner::GetPath: switch node "
                            << node->GetId() << " has no route to rank " << dst);
        TimeValue delay;
        sw->GetAttribute("ProcessingDelay", delay);
        path.switching += delay.Get();
        dev = sw->GetPort(out[0]);
    }
    NS_ABORT_MSG("FlowWorkloadRunner::GetPath: the path from rank "
                 << src << " to rank " << dst << " does not end within " << MAX_PATH_LINKS
                 << " links (a routing loop?)");
}

void
FlowWorkloadRunner::RenewCongestionControl(const Active& a) const
{
    m_topo->GetRank(a.spec.src)
        ->GetObject<RoceNic>()
        ->RenewCongestionControl(a.qps.first, a.pathRtt);
    m_topo->GetRank(a.spec.dst)
        ->GetObject<RoceNic>()
        ->RenewCongestionControl(a.qps.second, a.pathRtt);
}

Time
FlowWorkloadRunner::GetIdealFct(uint32_t src, uint32_t dst, uint64_t bytes) const
{
    return IdealFct(GetPath(src, dst), src, dst, bytes);
}

Time
FlowWorkloadRunner::GetUnloadedRtt(uint32_t src, uint32_t dst) const
{
    return UnloadedRtt(GetPath(src, dst), src, dst);
}

Time
FlowWorkloadRunner::UnloadedRtt(const FlowPath& path, uint32_t src, uint32_t dst) const
{
    return IdealFct(path, src, dst, m_topo->GetRank(src)->GetObject<RoceNic>()->GetMtu());
}

Time
FlowWorkloadRunner::IdealFct(const FlowPath& path, uint32_t src, uint32_t dst, uint64_t bytes) const
{
    Ptr<RoceNic> nic = m_topo->GetRank(src)->GetObject<RoceNic>();
    const auto ports = m_topo->GetConnectionPorts(src, dst);
    uint8_t l2[PfcNetDevice::ETH_HEADER_BYTES + PfcNetDevice::DOT1Q_BYTES];
    const uint8_t prio = nic->GetCore()->GetPort(ports.first)->GetDscpPriority(nic->GetDataDscp());
    const uint32_t l2Bytes = nic->GetCore()->WriteFrameHeader(ports.first, prio, l2);
    // Wire bytes beyond the payload: L2, IPv4, UDP, BTH, ICRC, FCS, preamble, gap.
    const uint64_t perPacket =
        l2Bytes + IP_UDP + RoceBthHeader::SIZE + RoceIcrcTrailer::SIZE + FRAMING;
    const uint64_t mtu = nic->GetMtu();
    const uint64_t n = (bytes + mtu - 1) / mtu;
    const uint64_t wire = bytes + n * perPacket + RoceRethHeader::SIZE;
    const uint64_t first = std::min(bytes, mtu) + perPacket + RoceRethHeader::SIZE;
    const uint64_t last = (bytes - (n - 1) * mtu) + perPacket + (n == 1 ? RoceRethHeader::SIZE : 0);
    const uint64_t ack =
        std::max<uint64_t>(l2Bytes + IP_UDP + RoceBthHeader::SIZE + RoceAethHeader::SIZE +
                               RoceIcrcTrailer::SIZE + PfcNetDevice::FCS_BYTES,
                           PfcNetDevice::MIN_FRAME_BYTES) +
        PfcNetDevice::PREAMBLE_BYTES + PfcNetDevice::IFG_BYTES;
    const uint64_t gap = PfcNetDevice::IFG_BYTES;
    std::size_t b = 0;
    for (std::size_t i = 1; i < path.rates.size(); ++i)
    {
        if (path.rates[i] < path.rates[b])
        {
            b = i;
        }
    }
    Time t = 2 * path.switching;
    for (std::size_t i = 0; i < path.rates.size(); ++i)
    {
        const uint64_t data = i < b ? first : (i == b ? wire : last);
        t += Tx(data - gap, path.rates[i]) + Tx(ack - gap, path.rates[i]) + 2 * path.delays[i];
    }
    return t;
}

} // namespace ns3
