/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "uet-collective-transport.h"

#include "uet-ses-header.h"

#include "ns3/abort.h"
#include "ns3/fabric-attribute-checker.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <limits>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("UetCollectiveTransport");
NS_OBJECT_ENSURE_REGISTERED(UetCollectiveTransport);
NS_OBJECT_ENSURE_REGISTERED(UetCollectiveEndpointMux);

namespace
{
constexpr uint32_t MAX_RANKS = 1u << 24;    //!< ranks packed in 24 bits of a connection key
constexpr uint32_t MAX_CHANNELS = 1u << 16; //!< channels packed in 16 bits
/// The largest SES message: request_length is 32 bits.
constexpr uint64_t MAX_SES_MESSAGE = 0xFFFFFFFFull;
/// The memory region of a transport covers every offset.
constexpr uint64_t REGION_BYTES = std::numeric_limits<uint64_t>::max();
/// Memory keys of the transports: "COLL" then a counter (unique in the process).
constexpr uint64_t KEY_BASE = 0x434F4C4C00000000ull;
uint64_t g_transports = 0; //!< transports created

uint64_t
ConnectionKey(uint32_t src, uint32_t dst, uint32_t channel)
{
    return (uint64_t(src) << 40) | (uint64_t(dst) << 16) | channel;
}
} // namespace

// ---- UetCollectiveEndpointMux ------------------------------------------------------------

TypeId
UetCollectiveEndpointMux::GetTypeId()
{
    static TypeId tid = TypeId("ns3::UetCollectiveEndpointMux")
                            .SetParent<Object>()
                            .SetGroupName("AiFabric")
                            .AddConstructor<UetCollectiveEndpointMux>();
    return tid;
}

UetCollectiveEndpointMux::UetCollectiveEndpointMux() = default;

UetCollectiveEndpointMux::~UetCollectiveEndpointMux() = default;

void
UetCollectiveEndpointMux::DoDispose()
{
    m_handlers.clear();
    Object::DoDispose();
}

void
UetCollectiveEndpointMux::Register(uint64_t key, UetDeliveryCallback cb)
{
    m_handlers[key] = cb;
}

void
UetCollectiveEndpointMux::Unregister(uint64_t key)
{
    m_handlers.erase(key);
}

void
UetCollectiveEndpointMux::Deliver(const UetDelivery& d)
{
    if (d.op != UetOperation::WRITE)
    {
        return;
    }
    auto it = m_handlers.find(d.key);
    if (it != m_handlers.end())
    {
        it->second(d);
    }
}

// ---- UetCollectiveTransport --------------------------------------------------------------

TypeId
UetCollectiveTransport::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::UetCollectiveTransport")
            .SetParent<CollectiveTransport>()
            .SetGroupName("AiFabric")
            .AddConstructor<UetCollectiveTransport>()
            .AddAttribute("JobId",
                          "JobID of the ranks' endpoints {JobID, PIDonFEP} (0..16777215). "
                          "Transports of one job (the communicators of one CollectiveHelper) "
                          "share the endpoints.",
                          UintegerValue(1),
                          MakeUintegerAccessor(&UetCollectiveTransport::m_jobId),
                          MakeFabricUintegerChecker<uint32_t>("ns3::UetCollectiveTransport::JobId",
                                                              0,
                                                              0xFFFFFF))
            .AddAttribute("DeliveryMode",
                          "PDS delivery mode of the WRITEs: RUD (reliable unordered, sprayed; "
                          "the AI default) or ROD (reliable ordered, one path). RUDI and UUD "
                          "are refused (a WRITE with a completion needs a PDC).",
                          StringValue("RUD"),
                          MakeStringAccessor(&UetCollectiveTransport::SetDeliveryModeName,
                                             &UetCollectiveTransport::GetDeliveryModeName),
                          MakeFabricChecker<StringValue>(
                              MakeStringChecker(),
                              "ns3::UetCollectiveTransport::DeliveryMode",
                              [](const std::string& s) {
                                  return s == "RUD" || s == "ROD" || s == "RUDI" || s == "UUD";
                              },
                              "RUD, ROD (RUDI and UUD are not supported)",
                              [](const std::string& s) { return s; }))
            .AddAttribute(
                "MaxMessageBytes",
                "Largest SES message, bytes (1..4294967295, the 32-bit "
                "request_length): a larger collective message is split into WRITEs "
                "of at most this, in whole Mtu units when it is >= Mtu.",
                UintegerValue(MAX_SES_MESSAGE),
                MakeUintegerAccessor(&UetCollectiveTransport::m_maxMessageBytes),
                MakeFabricUintegerChecker<uint64_t>("ns3::UetCollectiveTransport::MaxMessageBytes",
                                                    1,
                                                    MAX_SES_MESSAGE));
    return tid;
}

UetCollectiveTransport::UetCollectiveTransport()
    : m_jobId(1),
      m_mode(UetDeliveryMode::RUD),
      m_maxMessageBytes(MAX_SES_MESSAGE),
      m_key(KEY_BASE + (++g_transports)),
      m_messages(0),
      m_parts(0),
      m_bytesSent(0),
      m_bytesDelivered(0)
{
    m_onDelivery = MakeCallback(&UetCollectiveTransport::OnDelivery, this);
}

UetCollectiveTransport::~UetCollectiveTransport()
{
    Unregister(); // the multiplexers may outlive a transport that was never disposed
}

void
UetCollectiveTransport::Unregister()
{
    for (auto& mux : m_muxes)
    {
        mux->Unregister(m_key);
    }
    m_muxes.clear();
}

void
UetCollectiveTransport::DoDispose()
{
    Unregister();
    m_conns.clear();
    m_connIndex.clear();
    m_endpoints.clear();
    m_nics.clear();
    m_pids.clear();
    m_portSelector.Nullify();
    m_onDelivery.Nullify();
    CollectiveTransport::DoDispose();
}

void
UetCollectiveTransport::SetDeliveryModeName(std::string name)
{
    NS_ABORT_MSG_IF(name == "RUDI" || name == "UUD",
                    "ns3::UetCollectiveTransport::DeliveryMode="
                        << name
                        << " is not supported: collective messages are WRITEs whose completion "
                           "needs a PDC; use RUD or ROD");
    NS_ABORT_MSG_IF(name != "RUD" && name != "ROD",
                    "ns3::UetCollectiveTransport::DeliveryMode=" << name
                                                                 << " is unknown (RUD or ROD)");
    m_mode = name == "ROD" ? UetDeliveryMode::ROD : UetDeliveryMode::RUD;
}

std::string
UetCollectiveTransport::GetDeliveryModeName() const
{
    return UetDeliveryModeName(m_mode);
}

UetDeliveryMode
UetCollectiveTransport::GetDeliveryMode() const
{
    return m_mode;
}

void
UetCollectiveTransport::SetNics(const std::vector<Ptr<UetNic>>& nics)
{
    NS_ABORT_MSG_IF(!m_conns.empty(),
                    "UetCollectiveTransport::SetNics: connections are already open");
    NS_ABORT_MSG_IF(nics.size() > MAX_RANKS,
                    "UetCollectiveTransport: " << nics.size() << " ranks, more than " << MAX_RANKS);
    std::map<UetNic*, uint32_t> perNic;
    std::vector<uint16_t> pids;
    for (uint32_t i = 0; i < nics.size(); ++i)
    {
        NS_ABORT_MSG_IF(!nics[i], "UetCollectiveTransport: the NIC of rank " << i << " is null");
        uint32_t pid = perNic[PeekPointer(nics[i])]++;
        NS_ABORT_MSG_IF(pid > 0xFFF,
                        "UetCollectiveTransport: rank "
                            << i << " is the " << pid + 1
                            << "th rank on its NIC; PIDonFEP is 12 bits (at most 4096 ranks "
                               "per NIC)");
        pids.push_back(static_cast<uint16_t>(pid));
    }
    Unregister();
    m_endpoints.clear();
    m_nics = nics;
    m_pids = std::move(pids);
}

void
UetCollectiveTransport::SetRankNodes(const std::vector<Ptr<Node>>& nodes)
{
    std::vector<Ptr<UetNic>> nics;
    for (uint32_t i = 0; i < nodes.size(); ++i)
    {
        NS_ABORT_MSG_IF(!nodes[i], "UetCollectiveTransport: the node of rank " << i << " is null");
        Ptr<UetNic> nic = nodes[i]->GetObject<UetNic>();
        NS_ABORT_MSG_IF(!nic,
                        "UetCollectiveTransport: the node of rank "
                            << i << " (node " << nodes[i]->GetId()
                            << ") has no UetNic (install one with UetNicHelper, or a topology "
                               "with Transports=uet or roce+uet)");
        nics.push_back(nic);
    }
    SetNics(nics);
    SetRankSystems(nodes);
}

Ptr<UetNic>
UetCollectiveTransport::GetNic(uint32_t rank) const
{
    NS_ABORT_MSG_IF(rank >= m_nics.size(),
                    "UetCollectiveTransport: rank " << rank << " does not exist (the transport has "
                                                    << m_nics.size() << " ranks)");
    return m_nics[rank];
}

uint16_t
UetCollectiveTransport::GetPidOnFep(uint32_t rank) const
{
    GetNic(rank);
    return m_pids[rank];
}

Ptr<UetEndpoint>
UetCollectiveTransport::GetEndpoint(uint32_t rank, uint32_t port) const
{
    GetNic(rank);
    auto it = m_endpoints.find((uint64_t(rank) << 32) | port);
    return it == m_endpoints.end() ? nullptr : it->second;
}

uint64_t
UetCollectiveTransport::GetMemoryKey() const
{
    return m_key;
}

void
UetCollectiveTransport::SetPortSelector(PortSelector selector)
{
    NS_ABORT_MSG_IF(!m_conns.empty(),
                    "UetCollectiveTransport::SetPortSelector: connections are already open");
    m_portSelector = selector;
}

int64_t
UetCollectiveTransport::AssignStreams(int64_t stream)
{
    int64_t used = 0;
    std::map<UetNic*, bool> seen;
    for (const auto& nic : m_nics)
    {
        if (seen.emplace(PeekPointer(nic), true).second)
        {
            used += nic->AssignStreams(stream + used);
        }
    }
    return used;
}

uint32_t
UetCollectiveTransport::GetNRanks() const
{
    return static_cast<uint32_t>(m_nics.size());
}

Ptr<UetEndpoint>
UetCollectiveTransport::EndpointOf(uint32_t rank, uint32_t port)
{
    uint64_t k = (uint64_t(rank) << 32) | port;
    auto it = m_endpoints.find(k);
    if (it != m_endpoints.end())
    {
        return it->second;
    }
    const Ptr<UetNic>& nic = m_nics[rank];
    uint16_t pid = m_pids[rank];
    Ptr<UetEndpoint> ep = nic->GetEndpoint(port, m_jobId, pid);
    Ptr<UetCollectiveEndpointMux> mux;
    if (!ep)
    {
        ep = nic->CreateEndpoint(m_jobId, pid, port);
        mux = CreateObject<UetCollectiveEndpointMux>();
        ep->AggregateObject(mux);
        ep->SetDeliveryCallback(MakeCallback(&UetCollectiveEndpointMux::Deliver, mux));
    }
    else
    {
        mux = ep->GetObject<UetCollectiveEndpointMux>();
        NS_ABORT_MSG_IF(!mux,
                        "UetCollectiveTransport: rank "
                            << rank << " (node " << nic->GetNodeId() << " port " << port
                            << ") already has the endpoint {JobID " << m_jobId << ", PIDonFEP "
                            << pid
                            << "}, not made by a collective transport; set "
                               "ns3::UetCollectiveTransport::JobId to another job");
    }
    mux->Register(m_key, m_onDelivery);
    m_muxes.push_back(mux);
    ep->RegisterMemory(m_key, REGION_BYTES);
    m_endpoints.emplace(k, ep);
    return ep;
}

void
UetCollectiveTransport::Connect(uint32_t src, uint32_t dst, uint32_t channel)
{
    GetConnection(src, dst, channel);
}

bool
UetCollectiveTransport::SupportsProcesses() const
{
    return true;
}

CollectiveMessageWindow*
UetCollectiveTransport::GetAnnouncedWindow(uint32_t conn, uint32_t* src)
{
    if (conn >= m_conns.size())
    {
        return nullptr;
    }
    *src = m_conns[conn].src;
    return &m_conns[conn].window;
}

uint32_t
UetCollectiveTransport::GetConnection(uint32_t src, uint32_t dst, uint32_t channel)
{
    NS_ABORT_MSG_IF(src >= m_nics.size() || dst >= m_nics.size(),
                    "UetCollectiveTransport: rank " << (src >= m_nics.size() ? src : dst)
                                                    << " does not exist (the transport has "
                                                    << m_nics.size() << " ranks)");
    NS_ABORT_MSG_IF(src == dst, "UetCollectiveTransport: rank " << src << " cannot send to itself");
    NS_ABORT_MSG_IF(channel >= MAX_CHANNELS,
                    "UetCollectiveTransport: channel " << channel << " is invalid (0.."
                                                       << MAX_CHANNELS - 1 << ")");
    uint64_t key = ConnectionKey(src, dst, channel);
    auto it = m_connIndex.find(key);
    if (it != m_connIndex.end())
    {
        return it->second;
    }
    NS_ABORT_MSG_IF(m_conns.size() >= std::numeric_limits<uint32_t>::max(),
                    "UetCollectiveTransport: too many connections");
    std::pair<uint32_t, uint32_t> ports =
        m_portSelector.IsNull() ? std::make_pair(0u, 0u) : m_portSelector(src, dst, channel);
    NS_ABORT_MSG_IF(ports.first >= m_nics[src]->GetNPorts() ||
                        ports.second >= m_nics[dst]->GetNPorts(),
                    "UetCollectiveTransport: the port selector chose port "
                        << ports.first << " of rank " << src << " (" << m_nics[src]->GetNPorts()
                        << " ports) and port " << ports.second << " of rank " << dst << " ("
                        << m_nics[dst]->GetNPorts() << " ports) for channel " << channel);
    uint32_t index = static_cast<uint32_t>(m_conns.size());
    Connection c;
    c.src = src;
    c.dst = dst;
    c.channel = channel;
    c.srcPort = ports.first;
    c.dstPort = ports.second;
    c.ep = EndpointOf(src, ports.first);
    c.target = EndpointOf(dst, ports.second)->GetAddress(0);
    c.mtu = m_nics[src]->GetMtu();
    c.onComplete = MakeCallback(&UetCollectiveTransport::OnComplete, this, index);
    m_conns.push_back(std::move(c));
    m_connIndex.emplace(key, index);
    NS_LOG_DEBUG("opened connection " << index << ": rank " << src << " port " << ports.first
                                      << " -> rank " << dst << " port " << ports.second
                                      << " channel " << channel);
    return index;
}

std::pair<uint32_t, uint32_t>
UetCollectiveTransport::GetPorts(uint32_t src, uint32_t dst, uint32_t channel) const
{
    auto it = m_connIndex.find(ConnectionKey(src, dst, channel));
    if (it == m_connIndex.end())
    {
        return {UINT32_MAX, UINT32_MAX};
    }
    const Connection& c = m_conns[it->second];
    return {c.srcPort, c.dstPort};
}

uint32_t
UetCollectiveTransport::GetNConnections() const
{
    return static_cast<uint32_t>(m_conns.size());
}

uint64_t
UetCollectiveTransport::GetMessagesSent() const
{
    return m_messages;
}

uint64_t
UetCollectiveTransport::GetPartsPosted() const
{
    return m_parts;
}

uint64_t
UetCollectiveTransport::GetBytesSent() const
{
    return m_bytesSent;
}

uint64_t
UetCollectiveTransport::GetBytesDelivered() const
{
    return m_bytesDelivered;
}

void
UetCollectiveTransport::Send(uint32_t src,
                             uint32_t dst,
                             uint32_t channel,
                             uint64_t bytes,
                             CollectiveMessageListener* listener,
                             uint64_t cookie)
{
    uint32_t index = GetConnection(src, dst, channel);
    Connection& c = m_conns[index];
    // Whole MTUs per part (every packet but the last full), unless a part is below one MTU.
    const uint64_t partBytes =
        m_maxMessageBytes >= c.mtu ? m_maxMessageBytes / c.mtu * c.mtu : m_maxMessageBytes;
    uint64_t parts = bytes == 0 ? 1 : (bytes - 1) / partBytes + 1;
    NS_ABORT_MSG_IF(c.window.GetPending() >= std::numeric_limits<uint32_t>::max(),
                    "UetCollectiveTransport: rank " << src << " -> rank " << dst << " channel "
                                                    << channel << " has 2^32 - 1 messages pending");
    uint32_t seq = AddMessage(c.window, index, src, dst, bytes, parts, listener, cookie);
    m_messages++;
    m_parts += parts;
    m_bytesSent += bytes;

    const uint64_t headerData = (uint64_t(index) << 32) | seq;
    uint64_t offset = 0;
    for (uint64_t p = 0; p < parts; ++p)
    {
        uint64_t len = std::min(partBytes, bytes - offset);
        // Completions are asynchronous (they follow a packet or a timer), so the id is
        // recorded after the post returns.
        uint64_t op =
            c.ep->PostWriteWithData(c.target, m_key, offset, len, headerData, c.onComplete, m_mode);
        c.posted.emplace(op, seq);
        offset += len;
    }
}

void
UetCollectiveTransport::OnDelivery(const UetDelivery& d)
{
    NS_ABORT_MSG_IF(!d.hasHeaderData,
                    "UetCollectiveTransport: a WRITE from " << d.initiatorFep
                                                            << " to this transport's memory key "
                                                               "carried no header data");
    uint64_t conn = d.headerData >> 32;
    NS_ABORT_MSG_IF(conn >= m_conns.size(),
                    "UetCollectiveTransport: a WRITE from "
                        << d.initiatorFep << " names connection " << conn << " (the transport has "
                        << m_conns.size() << ")");
    Connection& c = m_conns[conn];
    c.window.PartArrived(static_cast<uint32_t>(d.headerData), m_bytesDelivered);
}

void
UetCollectiveTransport::OnComplete(uint32_t conn, const UetCompletion& uc)
{
    Connection& c = m_conns[conn];
    auto pit = c.posted.find(uc.id);
    NS_ABORT_MSG_IF(pit == c.posted.end(),
                    "UetCollectiveTransport: rank " << c.src << " -> rank " << c.dst
                                                    << ": completion of unknown operation "
                                                    << uc.id);
    uint32_t seq = pit->second;
    c.posted.erase(pit);
    if (!c.window.IsLive(seq))
    {
        return; // a message already given up on
    }
    if (!uc.ok)
    {
        std::ostringstream why;
        why << "UET " << UetOperationName(uc.op) << " " << uc.id << " ("
            << UetDeliveryModeName(uc.mode) << ", " << uc.bytes << " B to " << uc.target.fep
            << ") failed: "
            << (uc.error.empty()
                    ? std::string("target returned ") + UetSesHeader::ReturnCodeName(uc.returnCode)
                    : uc.error)
            << " (rank " << c.src << " -> rank " << c.dst << ", channel " << c.channel << ")";
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
