/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "pfc-channel.h"

#include "pfc-net-device.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/simulator.h"

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
    return end;
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
