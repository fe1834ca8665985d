/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "uet-endpoint.h"

#include "uet-nic.h"
#include "uet-ses-header.h"

#include "ns3/abort.h"
#include "ns3/fabric-attribute-checker.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <iterator>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("UetEndpoint");
NS_OBJECT_ENSURE_REGISTERED(UetEndpoint);

namespace
{
/// The largest message: the SES request_length field is 32 bits.
constexpr uint64_t MAX_MESSAGE_BYTES = 0xFFFFFFFFull;
} // namespace

TypeId
UetEndpoint::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::UetEndpoint")
            .SetParent<Object>()
            .SetGroupName("AiFabric")
            .AddConstructor<UetEndpoint>()
            .AddAttribute("UnexpectedLimit",
                          "Messages a SEND/TAGGED_SEND target keeps in its unexpected list "
                          "(arrived before a matching receive was posted); beyond it a "
                          "message is refused with RC_NO_MATCH (0..1048576).",
                          UintegerValue(1024),
                          MakeUintegerAccessor(&UetEndpoint::m_unexpectedLimit),
                          MakeFabricUintegerChecker<uint32_t>("ns3::UetEndpoint::UnexpectedLimit",
                                                              0,
                                                              1u << 20));
    return tid;
}

UetEndpoint::UetEndpoint()
    : m_unexpectedLimit(1024)
{
}

UetEndpoint::~UetEndpoint() = default;

void
UetEndpoint::DoDispose()
{
    m_receives.clear();
    m_pending.clear();
    m_deliveryCb.Nullify();
    m_nic = nullptr;
    Object::DoDispose();
}

void
UetEndpoint::Bind(UetNic* nic, uint32_t port, uint32_t jobId, uint16_t pid, uint16_t resources)
{
    m_nic = nic;
    m_port = port;
    m_jobId = jobId;
    m_pid = pid;
    m_resources = resources;
}

uint32_t
UetEndpoint::GetJobId() const
{
    return m_jobId;
}

uint16_t
UetEndpoint::GetPidOnFep() const
{
    return m_pid;
}

uint32_t
UetEndpoint::GetPort() const
{
    return m_port;
}

uint16_t
UetEndpoint::GetNResources() const
{
    return m_resources;
}

Ptr<UetNic>
UetEndpoint::GetNic() const
{
    return Ptr<UetNic>(m_nic);
}

UetAddress
UetEndpoint::GetAddress(uint16_t resource) const
{
    NS_ABORT_MSG_IF(!m_nic, "UetEndpoint::GetAddress: the endpoint belongs to no NIC");
    UetAddress a;
    a.fep = m_nic->GetAddress(m_port);
    a.jobId = m_jobId;
    a.pidOnFep = m_pid;
    a.resource = resource;
    return a;
}

void
UetEndpoint::RegisterMemory(uint64_t key, uint64_t length)
{
    NS_ABORT_MSG_IF(length == 0,
                    "UetEndpoint::RegisterMemory: length 0 for key " << key
                                                                     << " (valid: >= 1 byte)");
    m_mrs[key] = length;
}

uint64_t
UetEndpoint::Post(UetOperation op,
                  const UetAddress& target,
                  uint64_t key,
                  uint64_t offset,
                  uint64_t bytes,
                  uint64_t headerData,
                  bool hasHeaderData,
                  UetCompletionCallback cb,
                  UetDeliveryMode mode)
{
    NS_ABORT_MSG_IF(!m_nic, "UetEndpoint: post on an endpoint not created by a UetNic");
    NS_ABORT_MSG_IF(bytes > MAX_MESSAGE_BYTES,
                    "UetEndpoint: " << UetOperationName(op) << " of " << bytes
                                    << " bytes is too long; one SES message is 0.."
                                    << MAX_MESSAGE_BYTES
                                    << " bytes (request_length is 32 bits): split it");
    NS_ABORT_MSG_IF(target.jobId > 0xFFFFFF,
                    "UetEndpoint: JobID " << target.jobId << " is out of range (0..16777215)");
    NS_ABORT_MSG_IF(target.pidOnFep > 0xFFF,
                    "UetEndpoint: PIDonFEP " << target.pidOnFep << " is out of range (0..4095)");
    NS_ABORT_MSG_IF(target.resource > 0xFFF,
                    "UetEndpoint: Resource Index " << target.resource
                                                   << " is out of range (0..4095)");
    NS_ABORT_MSG_IF(op == UetOperation::READ && mode != UetDeliveryMode::RUD &&
                        mode != UetDeliveryMode::ROD,
                    "UetEndpoint: READ over " << UetDeliveryModeName(mode)
                                              << " is not supported (READ data needs a PDC: "
                                                 "use RUD or ROD)");
    UetTxMessage m;
    m.op = op;
    m.target = target;
    m.initiator = m_pid;
    m.key = key;
    m.offset = offset;
    m.bytes = bytes;
    m.headerData = headerData;
    m.hasHeaderData = hasHeaderData;
    m.cb = cb;
    // The initiator's JobID is the target's (relative addressing is not modelled): the PDC is
    // keyed by the operation's JobID, as UET.md says.
    return m_nic->PostOperation(m_port, mode, std::move(m));
}

uint64_t
UetEndpoint::PostWrite(const UetAddress& target,
                       uint64_t key,
                       uint64_t offset,
                       uint64_t bytes,
                       UetCompletionCallback cb,
                       UetDeliveryMode mode)
{
    return Post(UetOperation::WRITE, target, key, offset, bytes, 0, false, cb, mode);
}

uint64_t
UetEndpoint::PostWriteWithData(const UetAddress& target,
                               uint64_t key,
                               uint64_t offset,
                               uint64_t bytes,
                               uint64_t headerData,
                               UetCompletionCallback cb,
                               UetDeliveryMode mode)
{
    return Post(UetOperation::WRITE, target, key, offset, bytes, headerData, true, cb, mode);
}

uint64_t
UetEndpoint::PostRead(const UetAddress& target,
                      uint64_t key,
                      uint64_t offset,
                      uint64_t bytes,
                      UetCompletionCallback cb,
                      UetDeliveryMode mode)
{
    return Post(UetOperation::READ, target, key, offset, bytes, 0, false, cb, mode);
}

uint64_t
UetEndpoint::PostSend(const UetAddress& target,
                      uint64_t bytes,
                      UetCompletionCallback cb,
                      UetDeliveryMode mode)
{
    return Post(UetOperation::SEND, target, 0, 0, bytes, 0, false, cb, mode);
}

uint64_t
UetEndpoint::PostTaggedSend(const UetAddress& target,
                            uint64_t tag,
                            uint64_t bytes,
                            UetCompletionCallback cb,
                            UetDeliveryMode mode)
{
    return Post(UetOperation::TAGGED_SEND, target, tag, 0, bytes, 0, false, cb, mode);
}

bool
UetEndpoint::Matches(const Receive& r, uint16_t resource, bool tagged, uint64_t tag)
{
    if (r.resource != resource || r.tagged != tagged)
    {
        return false;
    }
    return !tagged || ((r.tag ^ tag) & ~r.ignore) == 0;
}

uint64_t
UetEndpoint::PostRecv(Receive r)
{
    NS_ABORT_MSG_IF(r.resource >= m_resources,
                    "UetEndpoint: receive on Resource Index "
                        << r.resource << ", but the endpoint has resources 0.." << m_resources - 1);
    r.id = m_nextReceiveId++;
    uint64_t id = r.id;
    Offer(std::move(r));
    return id;
}

void
UetEndpoint::Offer(Receive r)
{
    // An unexpected message that matches takes the receive at once (oldest first).
    for (auto it = m_pending.begin(); it != m_pending.end(); ++it)
    {
        if (it->matched || !Matches(r, it->resource, it->tagged, it->tag))
        {
            continue;
        }
        if (it->arrived)
        {
            UetDelivery d = it->delivery;
            m_pending.erase(it);
            d.receiveId = r.id;
            d.unexpected = true;
            if (d.bytes > r.bytes)
            {
                d.returnCode = UetSesHeader::RC_TOO_LONG;
            }
            // Delivered as an event, as a provider completes a receive asynchronously.
            Simulator::ScheduleNow(&UetEndpoint::Notify, this, r, d);
            return;
        }
        it->matched = true;
        it->receive = r;
        return;
    }
    // In post order (a receive given back by Abandon() goes before the ones posted after it).
    auto at = m_receives.end();
    while (at != m_receives.begin() && std::prev(at)->id > r.id)
    {
        --at;
    }
    m_receives.insert(at, std::move(r));
}

void
UetEndpoint::Abandon(uint64_t matchId)
{
    auto it = std::find_if(m_pending.begin(), m_pending.end(), [matchId](const Pending& p) {
        return p.id == matchId;
    });
    if (matchId == 0 || it == m_pending.end())
    {
        return;
    }
    bool matched = it->matched;
    Receive r = std::move(it->receive);
    m_pending.erase(it);
    if (matched)
    {
        Offer(std::move(r));
    }
}

uint64_t
UetEndpoint::PostReceive(uint16_t resource, uint64_t bytes, UetDeliveryCallback cb)
{
    Receive r;
    r.resource = resource;
    r.bytes = bytes;
    r.cb = cb;
    return PostRecv(std::move(r));
}

uint64_t
UetEndpoint::PostTaggedReceive(uint16_t resource,
                               uint64_t tag,
                               uint64_t ignore,
                               uint64_t bytes,
                               UetDeliveryCallback cb)
{
    Receive r;
    r.resource = resource;
    r.tagged = true;
    r.tag = tag;
    r.ignore = ignore;
    r.bytes = bytes;
    r.cb = cb;
    return PostRecv(std::move(r));
}

void
UetEndpoint::SetDeliveryCallback(UetDeliveryCallback cb)
{
    m_deliveryCb = cb;
}

uint32_t
UetEndpoint::GetNPostedReceives() const
{
    return static_cast<uint32_t>(m_receives.size());
}

uint32_t
UetEndpoint::GetNUnexpected() const
{
    uint32_t n = 0;
    for (const auto& p : m_pending)
    {
        n += p.matched ? 0 : 1;
    }
    return n;
}

uint8_t
UetEndpoint::Admit(UetOperation op,
                   uint16_t resource,
                   uint64_t key,
                   uint64_t offset,
                   uint64_t bytes,
                   uint64_t* matchId)
{
    *matchId = 0;
    if (resource >= m_resources)
    {
        return UetSesHeader::RC_BAD_INDEX;
    }
    if (op == UetOperation::WRITE || op == UetOperation::READ)
    {
        auto it = m_mrs.find(key);
        if (it == m_mrs.end())
        {
            return UetSesHeader::RC_BAD_MKEY;
        }
        if (offset > it->second || bytes > it->second - offset)
        {
            return UetSesHeader::RC_AT_OUT_OF_RANGE;
        }
        return UetSesHeader::RC_OK;
    }
    bool tagged = op == UetOperation::TAGGED_SEND;
    Pending p;
    p.id = m_nextMatchId++;
    p.resource = resource;
    p.tagged = tagged;
    p.tag = key;
    p.bytes = bytes;
    for (auto it = m_receives.begin(); it != m_receives.end(); ++it)
    {
        if (Matches(*it, resource, tagged, key))
        {
            p.matched = true;
            p.receive = std::move(*it);
            m_receives.erase(it);
            break;
        }
    }
    if (!p.matched)
    {
        if (GetNUnexpected() >= m_unexpectedLimit)
        {
            return UetSesHeader::RC_NO_MATCH;
        }
        p.unexpected = true;
    }
    *matchId = p.id;
    bool tooLong = p.matched && bytes > p.receive.bytes;
    m_pending.push_back(std::move(p));
    // A receive too short still completes (in error, RC_TOO_LONG), as fi_recv does.
    return tooLong ? UetSesHeader::RC_TOO_LONG : UetSesHeader::RC_OK;
}

void
UetEndpoint::Notify(const Receive& r, UetDelivery d)
{
    if (!r.cb.IsNull())
    {
        r.cb(d);
    }
    if (m_nic)
    {
        m_nic->NotifyDelivery(d);
    }
    if (!m_deliveryCb.IsNull())
    {
        m_deliveryCb(d);
    }
}

void
UetEndpoint::Deliver(uint64_t matchId, UetDelivery d)
{
    if (matchId == 0)
    {
        // WRITE: no receive involved.
        Notify(Receive(), d);
        return;
    }
    for (auto it = m_pending.begin(); it != m_pending.end(); ++it)
    {
        if (it->id != matchId)
        {
            continue;
        }
        d.unexpected = it->unexpected;
        if (!it->matched)
        {
            // Arrived with no receive: it waits, buffered, for one.
            it->arrived = true;
            it->delivery = d;
            return;
        }
        Receive r = std::move(it->receive);
        m_pending.erase(it);
        d.receiveId = r.id;
        if (d.bytes > r.bytes)
        {
            d.returnCode = UetSesHeader::RC_TOO_LONG;
        }
        Notify(r, d);
        return;
    }
    NS_ABORT_MSG("UetEndpoint::Deliver: unknown match handle " << matchId);
}

} // namespace ns3
