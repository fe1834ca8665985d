/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "roce-collective-transport.h"

#include "ns3/abort.h"
#include "ns3/fabric-attribute-checker.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RoceCollectiveTransport");
NS_OBJECT_ENSURE_REGISTERED(RoceCollectiveTransport);

namespace
{
constexpr uint32_t MAX_RANKS = 1u << 24;    //!< ranks packed in 24 bits of a connection key
constexpr uint32_t MAX_CHANNELS = 1u << 16; //!< channels packed in 16 bits

uint64_t
ConnectionKey(uint32_t src, uint32_t dst, uint32_t channel)
{
    return (uint64_t(src) << 40) | (uint64_t(dst) << 16) | channel;
}
} // namespace

TypeId
RoceCollectiveTransport::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RoceCollectiveTransport")
            .SetParent<CollectiveTransport>()
            .SetGroupName("AiFabric")
            .AddConstructor<RoceCollectiveTransport>()
            .AddAttribute("QpsPerConnection",
                          "Queue pairs per connection; each message is split over them in "
                          "path-MTU units (NCCL_IB_QPS_PER_CONNECTION, default 1; 1..1024).",
                          UintegerValue(1),
                          MakeUintegerAccessor(&RoceCollectiveTransport::m_qpsPerConnection),
                          MakeFabricUintegerChecker<uint32_t>(
                              "ns3::RoceCollectiveTransport::QpsPerConnection",
                              1,
                              1024));
    return tid;
}

RoceCollectiveTransport::RoceCollectiveTransport()
    : m_qpsPerConnection(1),
      m_messages(0),
      m_bytesSent(0),
      m_bytesDelivered(0)
{
}

RoceCollectiveTransport::~RoceCollectiveTransport() = default;

void
RoceCollectiveTransport::DoDispose()
{
    for (auto& c : m_conns)
    {
        for (auto& qp : c.qps)
        {
            if (qp.second)
            {
                qp.second->SetReceiveCallback(RoceQueuePair::ReceiveCallback());
            }
        }
    }
    m_conns.clear();
    m_connIndex.clear();
    m_nics.clear();
    m_connector.Nullify();
    CollectiveTransport::DoDispose();
}

void
RoceCollectiveTransport::SetNics(const std::vector<Ptr<RoceNic>>& nics)
{
    NS_ABORT_MSG_IF(!m_conns.empty(),
                    "RoceCollectiveTransport::SetNics: connections are already open");
    m_nics.clear();
    for (const auto& nic : nics)
    {
        AddRank(nic);
    }
}

void
RoceCollectiveTransport::SetRankNodes(const std::vector<Ptr<Node>>& nodes)
{
    std::vector<Ptr<RoceNic>> nics;
    for (uint32_t i = 0; i < nodes.size(); ++i)
    {
        NS_ABORT_MSG_IF(!nodes[i], "RoceCollectiveTransport: the node of rank " << i << " is null");
        Ptr<RoceNic> nic = nodes[i]->GetObject<RoceNic>();
        NS_ABORT_MSG_IF(!nic,
                        "RoceCollectiveTransport: the node of rank "
                            << i << " (node " << nodes[i]->GetId()
                            << ") has no RoceNic (install one with RoceNicHelper)");
        nics.push_back(nic);
    }
    SetNics(nics);
    SetRankSystems(nodes);
}

uint32_t
RoceCollectiveTransport::AddRank(Ptr<RoceNic> nic)
{
    NS_ABORT_MSG_IF(!nic,
                    "RoceCollectiveTransport: the NIC of rank " << m_nics.size() << " is null");
    NS_ABORT_MSG_IF(m_nics.size() >= MAX_RANKS,
                    "RoceCollectiveTransport: more than " << MAX_RANKS << " ranks");
    m_nics.push_back(nic);
    return static_cast<uint32_t>(m_nics.size() - 1);
}

Ptr<RoceNic>
RoceCollectiveTransport::GetNic(uint32_t rank) const
{
    NS_ABORT_MSG_IF(rank >= m_nics.size(),
                    "RoceCollectiveTransport: rank "
                        << rank << " does not exist (the transport has " << m_nics.size()
                        << " ranks)");
    return m_nics[rank];
}

void
RoceCollectiveTransport::SetConnector(Connector connector)
{
    m_connector = connector;
}

RoceQpConnector&
RoceCollectiveTransport::GetQpConnector()
{
    return m_qpConnector;
}

int64_t
RoceCollectiveTransport::AssignStreams(int64_t stream)
{
    return m_qpConnector.AssignStreams(stream);
}

uint32_t
RoceCollectiveTransport::GetNRanks() const
{
    return static_cast<uint32_t>(m_nics.size());
}

std::vector<RoceCollectiveTransport::QpPair>
RoceCollectiveTransport::DefaultConnect(uint32_t src, uint32_t dst, uint32_t nQps)
{
    return m_qpConnector.Connect(m_nics[src], m_nics[dst], nQps, 0, 0, "RoceNicHelper::Connect");
}

void
RoceCollectiveTransport::Connect(uint32_t src, uint32_t dst, uint32_t channel)
{
    GetConnection(src, dst, channel);
}

bool
RoceCollectiveTransport::SupportsProcesses() const
{
    return true;
}

CollectiveMessageWindow*
RoceCollectiveTransport::GetAnnouncedWindow(uint32_t conn, uint32_t* src)
{
    if (conn >= m_conns.size())
    {
        return nullptr;
    }
    *src = m_conns[conn].src;
    return &m_conns[conn].window;
}

uint32_t
RoceCollectiveTransport::GetConnection(uint32_t src, uint32_t dst, uint32_t channel)
{
    NS_ABORT_MSG_IF(src >= m_nics.size() || dst >= m_nics.size(),
                    "RoceCollectiveTransport: rank " << (src >= m_nics.size() ? src : dst)
                                                     << " does not exist (the transport has "
                                                     << m_nics.size() << " ranks)");
    NS_ABORT_MSG_IF(src == dst,
                    "RoceCollectiveTransport: rank " << src << " cannot send to itself");
    NS_ABORT_MSG_IF(channel >= MAX_CHANNELS,
                    "RoceCollectiveTransport: channel " << channel << " is invalid (0.."
                                                        << MAX_CHANNELS - 1 << ")");
    uint64_t key = ConnectionKey(src, dst, channel);
    auto it = m_connIndex.find(key);
    if (it != m_connIndex.end())
    {
        return it->second;
    }
    std::vector<QpPair> qps = m_connector.IsNull() ? DefaultConnect(src, dst, m_qpsPerConnection)
                                                   : m_connector(src, dst, m_qpsPerConnection);
    NS_ABORT_MSG_IF(qps.size() != m_qpsPerConnection,
                    "RoceCollectiveTransport: the connector returned "
                        << qps.size() << " QP pairs for " << src << "->" << dst << ", expected "
                        << m_qpsPerConnection);
    uint32_t index = static_cast<uint32_t>(m_conns.size());
    for (const auto& qp : qps)
    {
        // A side simulated by another MPI process has no QP here (RoceQpConnector).
        NS_ABORT_MSG_IF((!qp.first && IsLocalRank(src)) || (!qp.second && IsLocalRank(dst)),
                        "RoceCollectiveTransport: the connector returned a null QP for "
                            << src << "->" << dst);
        NS_ABORT_MSG_IF((qp.first && qp.first->GetState() == RoceQueuePair::INIT) ||
                            (qp.second && qp.second->GetState() == RoceQueuePair::INIT),
                        "RoceCollectiveTransport: the connector returned a QP that is not "
                        "connected for "
                            << src << "->" << dst);
        if (qp.second)
        {
            qp.second->SetReceiveCallback(
                MakeCallback(&RoceCollectiveTransport::OnReceive, this, index));
        }
    }
    Connection c;
    c.src = src;
    c.dst = dst;
    c.channel = channel;
    c.qps = std::move(qps);
    for (uint32_t q = 0; q < c.qps.size(); ++q)
    {
        c.onComplete.push_back(MakeCallback(&RoceCollectiveTransport::OnComplete, this, index, q));
    }
    c.posted.resize(c.qps.size());
    m_conns.push_back(std::move(c));
    m_connIndex.emplace(key, index);
    NS_LOG_DEBUG("opened connection " << index << ": " << src << "->" << dst << " channel "
                                      << channel << " with " << m_qpsPerConnection << " QP(s)");
    return index;
}

std::vector<RoceCollectiveTransport::QpPair>
RoceCollectiveTransport::GetQps(uint32_t src, uint32_t dst, uint32_t channel) const
{
    auto it = m_connIndex.find(ConnectionKey(src, dst, channel));
    return it == m_connIndex.end() ? std::vector<QpPair>() : m_conns[it->second].qps;
}

uint32_t
RoceCollectiveTransport::GetNConnections() const
{
    return static_cast<uint32_t>(m_conns.size());
}

uint64_t
RoceCollectiveTransport::GetMessagesSent() const
{
    return m_messages;
}

uint64_t
RoceCollectiveTransport::GetBytesSent() const
{
    return m_bytesSent;
}

uint64_t
RoceCollectiveTransport::GetBytesDelivered() const
{
    return m_bytesDelivered;
}

void
RoceCollectiveTransport::Send(uint32_t src,
                              uint32_t dst,
                              uint32_t channel,
                              uint64_t bytes,
                              CollectiveMessageListener* listener,
                              uint64_t cookie)
{
    uint32_t index = GetConnection(src, dst, channel);
    Connection& c = m_conns[index];
    uint32_t mtu = m_nics[src]->GetMtu();
    uint64_t packets = bytes == 0 ? 1 : (bytes + mtu - 1) / mtu;
    uint32_t nQps = static_cast<uint32_t>(c.qps.size());
    uint32_t parts = static_cast<uint32_t>(std::min<uint64_t>(nQps, packets));
    // Whole MTUs per part, the remainder on the last part.
    uint64_t perPart = (packets + parts - 1) / parts * mtu;
    parts = bytes == 0 ? 1 : static_cast<uint32_t>((bytes + perPart - 1) / perPart);

    uint32_t seq = AddMessage(c.window, index, src, dst, bytes, parts, listener, cookie);
    m_messages++;
    m_bytesSent += bytes;

    uint64_t offset = 0;
    for (uint32_t p = 0; p < parts; ++p)
    {
        uint64_t len = std::min(perPart, bytes - offset);
        uint32_t q = c.nextQp;
        c.nextQp = (c.nextQp + 1) % nQps;
        // Recorded before posting: a QP in the error state completes the post at once.
        const Ptr<RoceQueuePair>& qp = c.qps[q].first;
        c.posted[q].PushBack({qp->GetNextWrId(), seq});
        // The remote address is not modelled (RETH carries the offset for readability).
        qp->PostWriteWithImm(len, seq, offset, 0, c.onComplete[q]);
        offset += len;
    }
}

void
RoceCollectiveTransport::OnReceive(uint32_t conn, const RoceReceiveCompletion& rc)
{
    Connection& c = m_conns[conn];
    NS_ABORT_MSG_IF(!rc.hasImm,
                    "RoceCollectiveTransport: connection " << c.src << "->" << c.dst
                                                           << " received a message without "
                                                              "immediate data");
    c.window.PartArrived(rc.imm, m_bytesDelivered);
}

void
RoceCollectiveTransport::OnComplete(uint32_t conn, uint32_t qp, const RoceWorkCompletion& wc)
{
    Connection& c = m_conns[conn];
    auto& posted = c.posted[qp];
    // RC completes work requests in post order (flushes included).
    NS_ABORT_MSG_IF(posted.IsEmpty() || posted.Front().first != wc.wrId,
                    "RoceCollectiveTransport: " << c.qps[qp].first->GetLabel()
                                                << " completed work request " << wc.wrId
                                                << " out of post order");
    uint32_t seq = posted.PopFront().second;
    if (!c.window.IsLive(seq))
    {
        return; // a message already given up on
    }
    if (wc.status != RoceWcStatus::SUCCESS)
    {
        std::ostringstream why;
        why << c.qps[qp].first->GetLabel() << " " << RoceWcStatusName(wc.status) << " (rank "
            << c.src << " -> rank " << c.dst << ", channel " << c.channel << ")";
        const CollectiveMessageWindow::Failure f = c.window.Fail(seq);
        // Copied: the callbacks below may open connections (m_conns moves).
        const uint32_t src = c.src;
        const uint32_t dst = c.dst;
        const uint32_t channel = c.channel;
        if (f.firstOfConnection)
        {
            NotifyFailure(src, dst, channel, why.str());
        }
        if (f.listener)
        {
            f.listener->MessageFailed(f.cookie, why.str());
        }
        return;
    }
    c.window.PartCompleted(seq);
}

} // namespace ns3
