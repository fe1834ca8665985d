/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "pfc-helper.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/fabric-input-error.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/pfc-channel.h"
#include "ns3/queue-size.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PfcHelper");

PfcHelper::PfcHelper()
{
    m_schedulerFactory.SetTypeId("ns3::PfcStrictPriorityScheduler");
    m_deviceFactory.SetTypeId("ns3::PfcNetDevice");
    m_channelFactory.SetTypeId("ns3::PfcChannel");
}

void
PfcHelper::SetQueueMaxSize(QueueSize size)
{
    m_deviceFactory.Set("TxQueueMaxSize", QueueSizeValue(size));
}

namespace
{
/// ASCII line for a transmit queue event ('+' enqueue, '-' dequeue), as ns-3's queue sinks.
void
AsciiQueueSink(Ptr<OutputStreamWrapper> stream,
               char what,
               std::string context,
               Ptr<const Packet> frame,
               uint8_t priority)
{
    *stream->GetStream() << what << " " << Simulator::Now().GetSeconds() << " " << context
                         << " priority " << unsigned(priority) << " " << *frame << std::endl;
}

/// ASCII line for a drop ('d'), with its reason.
void
AsciiDropSink(Ptr<OutputStreamWrapper> stream,
              std::string context,
              Ptr<const Packet> packet,
              PfcDropReason reason)
{
    *stream->GetStream() << "d " << Simulator::Now().GetSeconds() << " " << context << " ("
                         << PfcDropReasonName(reason) << ") " << *packet << std::endl;
}
} // namespace

void
PfcHelper::SetDeviceAttribute(std::string name, const AttributeValue& value)
{
    m_deviceFactory.Set(name, value);
}

void
PfcHelper::SetChannelAttribute(std::string name, const AttributeValue& value)
{
    m_channelFactory.Set(name, value);
}

Ptr<PfcNetDevice>
PfcHelper::CreateDevice(Ptr<Node> node)
{
    FABRIC_INPUT_ERROR_IF(!node, "PfcHelper::CreateDevice given a null node");
    Ptr<PfcNetDevice> dev = m_deviceFactory.Create<PfcNetDevice>();
    dev->SetAddress(Mac48Address::Allocate());
    dev->SetTxScheduler(m_schedulerFactory.Create<PfcTxScheduler>());
    node->AddDevice(dev);
    return dev;
}

NetDeviceContainer
PfcHelper::Install(Ptr<Node> a, Ptr<Node> b)
{
    Ptr<PfcNetDevice> da = CreateDevice(a);
    Ptr<PfcNetDevice> db = CreateDevice(b);
    Ptr<PfcChannel> channel = m_channelFactory.Create<PfcChannel>();
    da->Attach(channel);
    db->Attach(channel);
    NetDeviceContainer c;
    c.Add(da);
    c.Add(db);
    return c;
}

NetDeviceContainer
PfcHelper::Install(NodeContainer c)
{
    FABRIC_INPUT_ERROR_IF(c.GetN() != 2,
                          "PfcHelper::Install(NodeContainer) needs exactly 2 nodes, got "
                              << c.GetN());
    return Install(c.Get(0), c.Get(1));
}

void
PfcHelper::EnablePcapInternal(std::string prefix,
                              Ptr<NetDevice> nd,
                              bool promiscuous,
                              bool explicitFilename)
{
    Ptr<PfcNetDevice> device = nd->GetObject<PfcNetDevice>();
    if (!device)
    {
        NS_LOG_INFO("PfcHelper::EnablePcapInternal: device " << nd << " is not a PfcNetDevice");
        return;
    }
    PcapHelper pcapHelper;
    std::string filename =
        explicitFilename ? prefix : pcapHelper.GetFilenameFromDevice(prefix, device);
    // Nanosecond timestamps: at 400 Gb/s frames are 83 ns apart, below pcap's default 1 us.
    Ptr<PcapFileWrapper> file = CreateObject<PcapFileWrapper>();
    file->SetAttribute("NanosecMode", BooleanValue(true));
    file->Open(filename, std::ios::out);
    FABRIC_INPUT_ERROR_IF(file->Fail(), "PfcHelper: cannot open pcap file \"" << filename << "\"");
    file->Init(PcapHelper::DLT_EN10MB, PcapFile::SNAPLEN_DEFAULT, PcapFile::ZONE_DEFAULT);
    pcapHelper.HookDefaultSink<PfcNetDevice>(device,
                                             promiscuous ? "PromiscSniffer" : "Sniffer",
                                             file);
}

void
PfcHelper::EnableAsciiInternal(Ptr<OutputStreamWrapper> stream,
                               std::string prefix,
                               Ptr<NetDevice> nd,
                               bool explicitFilename)
{
    Ptr<PfcNetDevice> device = nd->GetObject<PfcNetDevice>();
    if (!device)
    {
        NS_LOG_INFO("PfcHelper::EnableAsciiInternal: device " << nd << " is not a PfcNetDevice");
        return;
    }
    Packet::EnablePrinting();
    AsciiTraceHelper asciiTraceHelper;
    if (!stream)
    {
        std::string filename =
            explicitFilename ? prefix : asciiTraceHelper.GetFilenameFromDevice(prefix, device);
        stream = asciiTraceHelper.CreateFileStream(filename);
    }
    std::ostringstream base;
    base << "/NodeList/" << device->GetNode()->GetId() << "/DeviceList/" << device->GetIfIndex()
         << "/$ns3::PfcNetDevice";
    device->TraceConnect(
        "MacRx",
        base.str() + "/MacRx",
        MakeBoundCallback(&AsciiTraceHelper::DefaultReceiveSinkWithContext, stream));
    device->TraceConnect("TxEnqueue",
                         base.str() + "/TxEnqueue",
                         MakeBoundCallback(&AsciiQueueSink, stream, '+'));
    device->TraceConnect("TxDequeue",
                         base.str() + "/TxDequeue",
                         MakeBoundCallback(&AsciiQueueSink, stream, '-'));
    device->TraceConnect("Drop", base.str() + "/Drop", MakeBoundCallback(&AsciiDropSink, stream));
}

} // namespace ns3
