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
    : m_nDevices(0),
      m_linkUp(true),
      m_delay(0)
{
    for (auto& d : m_dir)
    {
        d.deliver = Create<RecurringEvent<Direction, &Direction::Deliver>>(&d);
    }
}

void
PfcChannel::Direction::Deliver()
{
    dst->Receive(inFlight.Pop());
}

void
PfcChannel::DoDispose()
{
    m_engine.Reset();
    Channel::DoDispose();
}

void
PfcChannel::SetDelay(Time delay)
{
    NS_ABORT_MSG_IF(delay.IsStrictlyNegative(),
                    "PfcChannel Delay " << delay << " is invalid; it must be >= 0");
    NS_ABORT_MSG_IF(!m_dir[0].inFlight.IsEmpty() || !m_dir[1].inFlight.IsEmpty(),
                    "PfcChannel Delay cannot change from " << m_delay << " to " << delay
                                                           << " while frames are propagating");
    m_delay = delay;
}

Time
PfcChannel::GetDelay() const
{
    return m_delay;
}

void
PfcChannel::Attach(Ptr<PfcNetDevice> device)
{
    NS_ABORT_MSG_IF(m_nDevices >= 2, "PfcChannel already has two ports; cannot attach a third");
    NS_ABORT_MSG_IF(!device, "PfcChannel::Attach given a null device");
    m_dir[m_nDevices].dst = PeekPointer(device);
    m_dev[m_nDevices++] = device;
}

bool
PfcChannel::TransmitStart(const Ptr<Packet>& frame, const PfcNetDevice* src, const Time& frameTime)
{
    NS_ABORT_MSG_IF(m_nDevices != 2, "PfcChannel used with " << m_nDevices << " port(s); need 2");
    if (!m_linkUp)
    {
        return false;
    }
    Direction& d = m_dir[src == PeekPointer(m_dev[0]) ? 1 : 0];
    if (d.inFlight.IsEmpty())
    {
        d.context = d.dst->GetNodeId(); // refreshed whenever the cable goes idle
    }
    d.inFlight.Push(frame);
    if (FabricSimulatorImpl* sim = m_engine.Get())
    {
        sim->ScheduleRecurring(PeekPointer(d.deliver), d.context, frameTime + m_delay);
    }
    else
    {
        ScheduleRecurringWithContext(d.deliver, d.context, frameTime + m_delay);
    }
    return true;
}

void
PfcChannel::SetLinkUp(bool up)
{
    m_linkUp = up;
}

bool
PfcChannel::IsLinkUp() const
{
    return m_linkUp;
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
