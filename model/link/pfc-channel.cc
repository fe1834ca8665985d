/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "pfc-channel.h"

#include "pfc-net-device.h"
#include "pfc-remote-exchange.h"

#include "ns3/abort.h"
#include "ns3/fabric-input-error.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/simulator.h"

#ifdef NS3_MPI
#include "ns3/mpi-interface.h"
#include "ns3/mpi-receiver.h"
#endif

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PfcChannel");
NS_OBJECT_ENSURE_REGISTERED(PfcChannel);

TypeId
PfcChannel::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::PfcChannel")
            .SetParent<Channel>()
            .SetGroupName("AiFabric")
            .AddConstructor<PfcChannel>()
            .AddAttribute("Delay",
                          "One-way propagation delay of the cable (>= 0).",
                          TimeValue(NanoSeconds(0)),
                          MakeTimeAccessor(&PfcChannel::SetDelay, &PfcChannel::GetDelay),
                          MakeTimeChecker());
    return tid;
}

PfcChannel::PfcChannel()
    : m_nDevices(0)
{
    for (uint32_t i = 0; i < 2; ++i)
    {
        m_deliver[i] = Create<RecurringEvent<Direction, &Direction::Deliver>>(&m_dir[i]);
        m_dir[i].deliver = PeekPointer(m_deliver[i]);
    }
}

void
PfcChannel::Direction::Deliver()
{
    // The frame leaves the ring before the receiver runs (it may send on this cable).
    FabricFrame frame(std::move(ring[head]));
    head = (head + 1) & ((1u << capacityLog2) - 1);
    count--;
    dst->Receive(frame);
}

void
PfcChannel::Direction::Push(FabricFrame& frame)
{
    uint32_t capacity = capacityLog2 ? 1u << capacityLog2 : 0;
    if (count == capacity)
    {
        uint8_t log2 = capacityLog2 ? capacityLog2 + 1 : 4;
        NS_ABORT_MSG_IF(log2 > 31, "PfcChannel: more than 2^31 frames propagating on one cable");
        auto bigger = std::make_unique<FabricFrame[]>(1u << log2);
        for (uint32_t i = 0; i < count; ++i)
        {
            bigger[i] = std::move(ring[(head + i) & (capacity - 1)]);
        }
        ring = std::move(bigger);
        capacityLog2 = log2;
        head = 0;
    }
    ring[(head + count) & ((1u << capacityLog2) - 1)] = std::move(frame);
    count++;
}

void
PfcChannel::Direction::Clear()
{
    ring.reset();
    capacityLog2 = 0;
    head = 0;
    count = 0;
}

void
PfcChannel::DoDispose()
{
    for (auto& d : m_dir)
    {
        d.Clear();
        d.engine.Reset();
    }
    m_exchange = nullptr;
    Channel::DoDispose();
}

void
PfcChannel::SetDelay(Time delay)
{
    NS_ABORT_MSG_IF(delay.IsStrictlyNegative(),
                    "PfcChannel Delay " << delay << " is invalid; it must be >= 0");
    NS_ABORT_MSG_IF(m_dir[0].count > 0 || m_dir[1].count > 0,
                    "PfcChannel Delay cannot change from " << GetDelay() << " to " << delay
                                                           << " while frames are propagating");
    // ns-3's distributed engine and the exchange's batching read a cable between processes'
    // delay when it is connected: it stays fixed from then on.
    FABRIC_INPUT_ERROR_IF(IsRemote() && delay != m_dir[0].delay,
                          "PfcChannel Delay cannot change from "
                              << m_dir[0].delay.GetNanoSeconds() << " ns to "
                              << delay.GetNanoSeconds()
                              << " ns on a cable between MPI processes (it is the lookahead)");
    for (auto& d : m_dir)
    {
        d.delay = delay;
    }
}

Time
PfcChannel::GetDelay() const
{
    return m_dir[0].delay; // both directions hold the same
}

uint32_t
PfcChannel::Attach(Ptr<PfcNetDevice> device)
{
    NS_ABORT_MSG_IF(m_nDevices >= 2, "PfcChannel already has two ports; cannot attach a third");
    NS_ABORT_MSG_IF(!device, "PfcChannel::Attach given a null device");
    auto end = static_cast<uint32_t>(m_nDevices);
    m_dir[end].dst = PeekPointer(device);
    m_dev[m_nDevices++] = device;
    if (m_nDevices == 2)
    {
        ConnectProcesses();
    }
    return end;
}

bool
PfcChannel::IsRemote() const
{
    return m_dir[0].reach != Reach::LOCAL || m_dir[1].reach != Reach::LOCAL;
}

void
PfcChannel::ConnectProcesses()
{
#ifdef NS3_MPI
    if (!MpiInterface::IsEnabled())
    {
        return;
    }
    const uint32_t me = MpiInterface::GetSystemId();
    const bool local[2] = {m_dev[0]->GetNode()->GetSystemId() == me,
                           m_dev[1]->GetNode()->GetSystemId() == me};
    for (uint32_t end = 0; end < 2; ++end)
    {
        Direction& d = m_dir[end]; // frames travelling towards m_dev[end]
        d.reach = !local[1 - end] ? Reach::FOREIGN : (local[end] ? Reach::LOCAL : Reach::REMOTE);
    }
    CheckRemoteDelay();
    if (local[0] != local[1])
    {
        // Until a topology helper gives the process's shared exchange, the cable batches its
        // own frames; its delay bounds the other process's lookahead from above.
        auto own = CreateObject<PfcRemoteExchange>();
        own->SetLookahead(m_dev[local[0] ? 1 : 0]->GetNode()->GetSystemId(), m_dir[0].delay);
        SetRemoteExchange(own);
    }
#endif
}

void
PfcChannel::CheckRemoteDelay() const
{
    const bool crosses =
        m_nDevices == 2 && m_dev[0]->GetNode()->GetSystemId() != m_dev[1]->GetNode()->GetSystemId();
    FABRIC_INPUT_ERROR_IF(crosses && IsRemote() && !m_dir[0].delay.IsStrictlyPositive(),
                          "PfcChannel between node "
                              << m_dev[0]->GetNode()->GetId() << " (system "
                              << m_dev[0]->GetNode()->GetSystemId() << ") and node "
                              << m_dev[1]->GetNode()->GetId() << " (system "
                              << m_dev[1]->GetNode()->GetSystemId() << ") has Delay "
                              << m_dir[0].delay.GetNanoSeconds()
                              << " ns; a cable between MPI processes needs a Delay > 0 (ns-3's "
                                 "distributed engine takes it as its lookahead)");
}

void
PfcChannel::SendRemote(FabricFrame& frame, uint32_t dstEnd, const Time& frameTime)
{
#ifdef NS3_MPI
    const Direction& d = m_dir[dstEnd];
    NS_ABORT_MSG_IF(d.reach == Reach::FOREIGN,
                    "PfcChannel: node "
                        << m_dev[1 - dstEnd]->GetNode()->GetId() << " of MPI system "
                        << m_dev[1 - dstEnd]->GetNode()->GetSystemId()
                        << " sent a frame in the process of system " << MpiInterface::GetSystemId()
                        << ": work was started on a node this process does "
                           "not own");
    m_exchange->Send(frame, m_dev[dstEnd], Simulator::Now() + frameTime + d.delay);
#else
    NS_FATAL_ERROR("PfcChannel::SendRemote without MPI (end "
                   << dstEnd << ", frame " << frame.GetSize() << " B, " << frameTime << ")");
#endif
}

void
PfcChannel::SetRemoteExchange(Ptr<PfcRemoteExchange> exchange)
{
    m_exchange = exchange;
    for (uint32_t end = 0; m_nDevices == 2 && end < 2; ++end)
    {
        if (m_dev[end]->GetNode()->GetSystemId() != m_dev[1 - end]->GetNode()->GetSystemId())
        {
            exchange->AddReceivingPort(m_dev[end]);
        }
    }
#ifdef NS3_MPI
    for (uint32_t end = 0; end < m_nDevices; ++end)
    {
        if (m_dir[end].reach != Reach::FOREIGN || m_dir[1 - end].reach == Reach::FOREIGN)
        {
            continue; // not the local end of a cable from another process
        }
        // ns-3's MPI interface hands a message to the MpiReceiver aggregated to the device it
        // names; batches may name any receiving port of this process.
        Ptr<MpiReceiver> receiver = m_dev[end]->GetObject<MpiReceiver>();
        if (!receiver)
        {
            receiver = CreateObject<MpiReceiver>();
            m_dev[end]->AggregateObject(receiver);
        }
        receiver->SetReceiveCallback(MakeCallback(&PfcRemoteExchange::Receive, exchange));
    }
#endif
}

void
PfcChannel::InjectRemote(const Ptr<PfcNetDevice>& dst, FabricFrame& frame, const Time& rxTime)
{
    NS_ABORT_MSG_IF(m_nDevices != 2 || (dst != m_dev[0] && dst != m_dev[1]),
                    "PfcChannel::InjectRemote: the port is not an end of this cable");
    const uint32_t end = dst == m_dev[0] ? 0 : 1;
    Direction& d = m_dir[end];
    if (d.count == 0)
    {
        d.context = d.dst->GetNodeId();
    }
    d.Push(frame);
    ScheduleRecurringWithContext(m_deliver[end], d.context, rxTime - Simulator::Now());
}

bool
PfcChannel::TransmitStart(FabricFrame& frame, uint32_t srcEnd, const Time& frameTime)
{
    NS_ABORT_MSG_IF(srcEnd > 1,
                    "PfcChannel::TransmitStart from end " << srcEnd << "; ends are 0 and 1");
    Direction& d = m_dir[1 - srcEnd];
    NS_ABORT_MSG_IF(!d.dst,
                    "PfcChannel used with " << m_nDevices << " port(s); need 2 (end " << 1 - srcEnd
                                            << " has no port)");
    if (!d.linkUp)
    {
        return false;
    }
#ifdef NS3_MPI
    if (d.reach != Reach::LOCAL)
    {
        SendRemote(frame, 1 - srcEnd, frameTime);
        return true;
    }
#endif
    if (d.count == 0)
    {
        d.context = d.dst->GetNodeId(); // refreshed whenever the cable goes idle
    }
    d.Push(frame);
    if (FabricSimulatorImpl* sim = d.engine.Get())
    {
        sim->ScheduleRecurring(d.deliver, d.context, frameTime + d.delay);
    }
    else
    {
        ScheduleRecurringWithContext(m_deliver[1 - srcEnd], d.context, frameTime + d.delay);
    }
    return true;
}

void
PfcChannel::SetLinkUp(bool up)
{
    for (auto& d : m_dir)
    {
        d.linkUp = up;
    }
}

bool
PfcChannel::IsLinkUp() const
{
    return m_dir[0].linkUp; // both directions hold the same
}

std::size_t
PfcChannel::GetNDevices() const
{
    return m_nDevices;
}

Ptr<NetDevice>
PfcChannel::GetDevice(std::size_t i) const
{
    return GetPfcDevice(i);
}

Ptr<PfcNetDevice>
PfcChannel::GetPfcDevice(std::size_t i) const
{
    NS_ABORT_MSG_IF(i >= m_nDevices, "PfcChannel has no device " << i);
    return m_dev[i];
}

} // namespace ns3
