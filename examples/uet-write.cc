/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * uet-write: one Ultra Ethernet (UET) operation between two UetNics through a switch.
 *
 *   host 0 (UetNic, initiator) ── 400G ── switch ── 400G ── host 1 (UetNic, target)
 *
 * Posts one --op (write, read, send or tagged send) of --bytes over a RUD or ROD PDC
 * (--mode) and reports its completion (SES return code, FCT, goodput against the expected
 * line rate x payload / (payload + 122 B of SES/PDS/UDP/IPv4/Ethernet/FCS/preamble/IFG; 98 B
 * for READ data)), the PDC events (open, close), each NIC's counters (request packets,
 * retransmissions by trigger, RTOs, data received, ACKs, NACKs by code) and conservation. It
 * exits with status 1 if the operation failed, bytes were not conserved or the fabric health
 * monitor reported a problem.
 *
 * --loss=N drops N data frames (N at most the message's frames) at the receiving port (host 1;
 * host 0 for READ data), spread evenly over the message, the last one being its last frame:
 * the middle losses are recovered by SACK and inferred loss (RUD) or a NACK ROD_OOO go-back
 * (ROD), the tail loss by the RTO.
 * --pcap=PREFIX writes PREFIX-<node>-0.pcap for both NIC ports (decode them with
 * tshark -X lua_script:tools/wireshark/uet.lua). Model attributes are set with
 * --ns3::UetNic::Attribute=value (e.g. --ns3::UetNic::RtoMin=20us).
 *
 * --csv=FILE writes one row per PDC event and per completion, from the UetNic traces:
 *   time_us,node,pdc,role,peer,event,cause,psn,op,bytes,packets,acks_tx,acks_rx,fct_us
 * event is open (psn = Start_PSN), nack_tx / nack_rx (cause = NACK code, psn = NACK_PSN),
 * retransmit (cause = nack, rto, inferred or no-pdc; psn = the PSN resent), completion (cause
 * = SES return code and error; op, bytes, fct_us = completion - post time), close or
 * close_in_error (cause = why; bytes and packets = payload bytes and request packets the PDC
 * sent, retransmissions and Close included; acks_tx / acks_rx = ACKs it sent / received).
 * Cells that do not apply are empty.
 */

#include "ns3/ai-fabric-module.h"
#include "ns3/core-module.h"
#include "ns3/network-module.h"

#include <algorithm>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <limits>
#include <map>
#include <memory>
#include <set>
#include <sstream>

using namespace ns3;

namespace
{

/// Headers of a full data packet on the wire besides its payload: SES standard request 44, PDS
/// 12, UDP 8, IPv4 20, Ethernet 14, FCS 4, preamble 8, inter-frame gap 12.
constexpr uint32_t REQUEST_OVERHEAD = 44 + 12 + 8 + 20 + 14 + 4 + 8 + 12;
/// The same for READ data: SES response with data 20 instead of 44.
constexpr uint32_t READ_DATA_OVERHEAD = REQUEST_OVERHEAD - 44 + 20;

/**
 * Drops chosen data frames at a port: the index counts the UET request frames (RUD/ROD) the
 * port receives for the first time (retransmissions, flagged RETX, are not counted), so index
 * k is the k-th PSN of the PDC's data.
 */
class UetDataFrameDropper : public ErrorModel
{
  public:
    /// \return the TypeId
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("UetWriteDataFrameDropper")
                                .SetParent<ErrorModel>()
                                .SetGroupName("AiFabric")
                                .AddConstructor<UetDataFrameDropper>();
        return tid;
    }

    /// \param drops the indices to drop
    void SetDrops(std::set<uint64_t> drops)
    {
        m_drops = std::move(drops);
    }

  private:
    /// \return true to drop \p p: the frame's headers (Ethernet, IPv4, UDP 4793, PDS) say
    ///         it is a new request frame whose index is in the list
    bool DoCorrupt(Ptr<Packet> p) override
    {
        uint8_t b[64] = {};
        uint32_t n = p->CopyData(b, sizeof(b));
        uint32_t l2 = 14;
        uint16_t etherType = (b[12] << 8) | b[13];
        if (etherType == 0x8100)
        {
            l2 = 18;
            etherType = (b[16] << 8) | b[17];
        }
        const uint8_t* ip = b + l2;
        uint32_t udp = l2 + (ip[0] & 0x0F) * 4;
        if (etherType != 0x0800 || ip[9] != 17 || n < udp + 8 + 2 ||
            ((b[udp + 2] << 8) | b[udp + 3]) != UetPdsHeader::UDP_DST_PORT)
        {
            return false;
        }
        const uint8_t* pds = b + udp + 8;
        if (!UetPdsRequestHeader::IsRequestType(UetPdsHeader::PeekType(pds)) ||
            (UetPdsHeader::PeekFlags(pds) & UetPdsHeader::FLAG_RETX))
        {
            return false;
        }
        return m_drops.count(m_seen++) > 0;
    }

    /// Count from 0 again.
    void DoReset() override
    {
        m_seen = 0;
    }

    std::set<uint64_t> m_drops; //!< indices to drop
    uint64_t m_seen{0};         //!< new data frames seen
};

/// Per-PDC counts for the CSV's close row.
struct PdcStats
{
    bool initiator{false}; //!< role
    Ipv4Address peer;      //!< peer FEP
    uint64_t packets{0};   //!< request packets sent (PsnSent)
    uint64_t bytes{0};     //!< their payload bytes
    uint64_t acksTx{0};    //!< ACKs sent
    uint64_t acksRx{0};    //!< ACKs received
};

/// What one NIC's trace sources say: PDC events for the report, NACKs by code,
/// retransmissions by cause, and the CSV rows (written as they happen).
class NicRecorder
{
  public:
    /**
     * \param nic the NIC
     * \param csv the CSV stream (null: none)
     * \param events the shared list of PDC event lines (in time order)
     */
    NicRecorder(Ptr<UetNic> nic, std::ostream* csv, std::vector<std::string>* events)
        : m_nic(nic),
          m_node(nic->GetNodeId()),
          m_csv(csv),
          m_events(events)
    {
        nic->TraceConnectWithoutContext("PdcOpen", MakeCallback(&NicRecorder::OnOpen, this));
        nic->TraceConnectWithoutContext("PdcClose", MakeCallback(&NicRecorder::OnClose, this));
        nic->TraceConnectWithoutContext("Ack", MakeCallback(&NicRecorder::OnAck, this));
        nic->TraceConnectWithoutContext("Nack", MakeCallback(&NicRecorder::OnNack, this));
        nic->TraceConnectWithoutContext("Retransmit", MakeCallback(&NicRecorder::OnRetx, this));
        nic->TraceConnectWithoutContext("PsnSent", MakeCallback(&NicRecorder::OnSent, this));
        nic->TraceConnectWithoutContext("Completion",
                                        MakeCallback(&NicRecorder::OnCompletion, this));
    }

    std::map<std::string, uint64_t> retxCauses; //!< Retransmit trace events by cause
    std::map<uint8_t, uint64_t> nacksTx;        //!< NACKs sent by code
    std::map<uint8_t, uint64_t> nacksRx;        //!< NACKs received by code
    std::vector<UetCompletion> completions;     //!< operations completed here

  private:
    /// \return the current time in microseconds, for the CSV and the report
    static std::string Now()
    {
        std::ostringstream os;
        os << std::fixed << std::setprecision(3) << Simulator::Now().GetSeconds() * 1e6;
        return os.str();
    }

    /// \return \p s with commas replaced (CSV cells are not quoted)
    static std::string Cell(std::string s)
    {
        std::replace(s.begin(), s.end(), ',', ';');
        return s;
    }

    /// Write one CSV row (the columns after time_us and node).
    void Row(uint16_t pdc,
             const std::string& event,
             const std::string& cause,
             const std::string& psn,
             const std::string& rest = ",,,,,")
    {
        if (!m_csv)
        {
            return;
        }
        auto it = m_pdcs.find(pdc);
        std::string role;
        std::ostringstream peer;
        if (it != m_pdcs.end())
        {
            role = it->second.initiator ? "initiator" : "target";
            peer << it->second.peer;
        }
        *m_csv << Now() << "," << m_node << "," << pdc << "," << role << "," << peer.str() << ","
               << event << "," << Cell(cause) << "," << psn << "," << rest << "\n";
    }

    /// PdcOpen: an event line and an "open" row (psn = Start_PSN).
    void OnOpen(uint32_t port, uint16_t pdc, Ipv4Address peer, bool initiator)
    {
        m_pdcs[pdc] = PdcStats{initiator, peer};
        const UetPdc* p = m_nic->GetPdc(port, pdc);
        std::ostringstream os;
        os << Now() << " us  node " << m_node << " PDC " << pdc << " opened as "
           << (initiator ? "initiator" : "target") << " with " << peer << " ("
           << UetDeliveryModeName(p->GetMode()) << ", Start_PSN " << p->GetStartPsn() << ")";
        m_events->push_back(os.str());
        Row(pdc, "open", "", std::to_string(p->GetStartPsn()));
    }

    /// PdcClose: an event line and a "close" row with the PDC's counts.
    void OnClose(uint32_t, uint16_t pdc, Ipv4Address, bool error, const std::string& why)
    {
        std::ostringstream os;
        os << Now() << " us  node " << m_node << " PDC " << pdc
           << (error ? " closed in error: " : " closed: ") << why;
        m_events->push_back(os.str());
        const PdcStats& s = m_pdcs[pdc];
        std::ostringstream rest;
        rest << "," << s.bytes << "," << s.packets << "," << s.acksTx << "," << s.acksRx << ",";
        Row(pdc, error ? "close_in_error" : "close", why, "", rest.str());
        m_pdcs.erase(pdc);
    }

    /// Ack: counted per PDC.
    void OnAck(uint16_t pdc, uint32_t, uint32_t, bool received)
    {
        auto it = m_pdcs.find(pdc);
        if (it != m_pdcs.end())
        {
            (received ? it->second.acksRx : it->second.acksTx)++;
        }
    }

    /// Nack: counted by code; a "nack_tx" / "nack_rx" row.
    void OnNack(uint16_t pdc, uint32_t psn, uint8_t code, bool received)
    {
        (received ? nacksRx : nacksTx)[code]++;
        Row(pdc,
            received ? "nack_rx" : "nack_tx",
            UetPdsHeader::NackCodeName(code),
            std::to_string(psn));
    }

    /// Retransmit: counted by cause; a "retransmit" row.
    void OnRetx(uint16_t pdc, uint32_t psn, const std::string& cause)
    {
        retxCauses[cause]++;
        Row(pdc, "retransmit", cause, std::to_string(psn));
    }

    /// PsnSent: packets and payload bytes per PDC.
    void OnSent(uint16_t pdc, uint32_t, uint32_t payload)
    {
        auto it = m_pdcs.find(pdc);
        if (it != m_pdcs.end())
        {
            it->second.packets++;
            it->second.bytes += payload;
        }
    }

    /// Completion: kept for the report; a "completion" row with the FCT.
    void OnCompletion(const UetCompletion& c)
    {
        completions.push_back(c);
        const UetPdc* p = m_nic->FindInitiatorPdc(0, c.mode, c.target.jobId, c.target.fep);
        std::ostringstream rest;
        rest << UetOperationName(c.op) << "," << c.bytes << ",,,," << std::fixed
             << std::setprecision(3) << c.GetDuration().GetSeconds() * 1e6;
        std::string rc = UetSesHeader::ReturnCodeName(c.returnCode);
        Row(p ? p->GetLocalId() : 0,
            "completion",
            c.ok ? "RC_" + rc : "RC_" + rc + ": " + c.error,
            "",
            rest.str());
    }

    Ptr<UetNic> m_nic;                   //!< the NIC
    uint32_t m_node;                     //!< its node id
    std::ostream* m_csv;                 //!< CSV (null: none)
    std::vector<std::string>* m_events;  //!< PDC event lines
    std::map<uint16_t, PdcStats> m_pdcs; //!< open PDCs
};

/**
 * \param m counts by name
 * \return "name n, name n, ..." (empty if \p m is)
 */
std::string
ByKey(const std::map<std::string, uint64_t>& m)
{
    std::ostringstream os;
    for (const auto& [k, n] : m)
    {
        os << (os.tellp() > 0 ? ", " : "") << k << " " << n;
    }
    return os.str();
}

} // namespace

int
main(int argc, char* argv[])
{
    Time::SetResolution(Time::PS);

    std::string op = "write";
    uint64_t bytes = 64ull << 20;
    std::string mode = "rud";
    std::string rate = "400Gbps";
    int64_t loss = 0;
    std::string pcap;
    std::string csvPath;

    FabricCommandLine cmd(__FILE__);
    cmd.AddValue("op", "Operation: write, read, send or tagged (tagged send)", op);
    cmd.AddBytes("bytes", "Message size, bytes (0..4294967295; read: >= 1)", bytes);
    cmd.AddValue("mode", "PDS delivery mode: rud or rod", mode);
    cmd.AddRate("rate", "Link rate", rate);
    cmd.AddValue("loss",
                 "Drop this many data frames at the receiver (0..the frames of the message), "
                 "spread over it, the last frame included",
                 loss,
                 std::numeric_limits<int64_t>::min() + 1,
                 std::numeric_limits<int64_t>::max());
    cmd.AddValue("pcap", "Write PREFIX-<node>-0.pcap of both NIC ports (empty: none)", pcap);
    cmd.AddOutput("csv", "Write one row per PDC event and completion to this file", csvPath);
    cmd.Parse(argc, argv);
    if (!pcap.empty())
    {
        FabricCommandLine::CheckWritable(pcap + "-0-0.pcap", "--pcap=" + pcap);
    }

    const std::map<std::string, UetOperation> ops = {{"write", UetOperation::WRITE},
                                                     {"read", UetOperation::READ},
                                                     {"send", UetOperation::SEND},
                                                     {"tagged", UetOperation::TAGGED_SEND}};
    FABRIC_INPUT_ERROR_IF(ops.count(op) == 0,
                          "--op=" << op
                                  << " is invalid; valid values are write, read, send, tagged");
    const UetOperation operation = ops.at(op);
    FABRIC_INPUT_ERROR_IF(mode != "rud" && mode != "rod",
                          "--mode=" << mode << " is invalid; valid values are rud, rod");
    const UetDeliveryMode deliveryMode =
        mode == "rod" ? UetDeliveryMode::ROD : UetDeliveryMode::RUD;
    const bool read = operation == UetOperation::READ;
    FABRIC_INPUT_ERROR_IF(bytes > 0xFFFFFFFFull || (read && bytes == 0),
                          "--bytes=" << bytes << " is invalid for --op=" << op
                                     << "; valid range is " << (read ? "1" : "0")
                                     << "..4294967295 (one SES message"
                                     << (read ? "; a READ of 0 bytes returns no data" : "") << ")");

    // Two hosts on one switch (node 0, 1; the switch is node 2), 1 us cables.
    NodeContainer hosts;
    hosts.Create(2);
    Ptr<Node> swNode = CreateObject<Node>();
    PfcHelper links;
    links.SetDeviceAttribute("DataRate", StringValue(rate));
    links.SetChannelAttribute("Delay", TimeValue(MicroSeconds(1)));
    std::vector<Ptr<PfcNetDevice>> ports;
    for (uint32_t i = 0; i < 2; ++i)
    {
        ports.push_back(DynamicCast<PfcNetDevice>(links.Install(hosts.Get(i), swNode).Get(0)));
    }
    SwitchHelper switchHelper;
    switchHelper.SetEntropyParser(UetPdsHeader::UDP_DST_PORT, &UdpSourcePortEntropyParser);
    Ptr<FabricSwitch> sw = switchHelper.Install(swNode);
    UetNicHelper nicHelper;
    std::vector<Ptr<UetNic>> nics;
    for (uint32_t i = 0; i < 2; ++i)
    {
        Ipv4Address address(0x0a000001 + i);
        sw->GetForwardingTable()->SetRoute(address, {i});
        nics.push_back(nicHelper.Install(hosts.Get(i), ports[i], address));
    }
    sw->GetForwardingTable()->Freeze();
    nicHelper.AssignStreams(1);
    sw->AssignStreams(2);
    auto eps = nicHelper.CreateEndpoints({hosts.Get(0), hosts.Get(1)}, 1);
    const uint32_t mtu = nics[0]->GetMtu();
    // The data frames of the message (a WRITE/SEND of 0 bytes still sends one packet).
    const uint64_t frames = std::max<uint64_t>(1, (bytes + mtu - 1) / mtu);
    FABRIC_INPUT_ERROR_IF(loss < 0 || uint64_t(loss) > frames,
                          "--loss=" << loss << " is invalid; valid range is 0.." << frames
                                    << " (the " << frames << " data frames sent: ceil(--bytes="
                                    << bytes << " / Mtu " << mtu << "))");
    Ptr<FabricHealthMonitor> monitor = CreateObject<FabricHealthMonitor>();
    monitor->Install(hosts);

    if (loss > 0)
    {
        // k = 1..N: frame ceil(k x frames / N) - 1, so the last one is the message's last frame.
        std::set<uint64_t> drops;
        for (uint64_t k = 1; k <= uint64_t(loss); ++k)
        {
            drops.insert((k * frames + loss - 1) / loss - 1);
        }
        auto em = CreateObject<UetDataFrameDropper>();
        em->SetDrops(drops);
        // READ data flows to host 0, everything else to host 1.
        ports[read ? 0 : 1]->SetAttribute("ReceiveErrorModel", PointerValue(em));
    }
    if (!pcap.empty())
    {
        links.EnablePcap(pcap, ports[0], true);
        links.EnablePcap(pcap, ports[1], true);
    }
    std::ofstream csvFile;
    if (!csvPath.empty())
    {
        csvFile.open(csvPath);
        FABRIC_INPUT_ERROR_IF(!csvFile, "--csv=" << csvPath << ": cannot write the file");
        csvFile << "time_us,node,pdc,role,peer,event,cause,psn,op,bytes,packets,acks_tx,acks_rx,"
                   "fct_us\n";
    }
    std::vector<std::string> events;
    std::vector<std::unique_ptr<NicRecorder>> rec;
    for (const auto& nic : nics)
    {
        rec.push_back(
            std::make_unique<NicRecorder>(nic, csvPath.empty() ? nullptr : &csvFile, &events));
    }

    const uint64_t key = 0x1000;
    const uint64_t tag = 0x5eed;
    const UetAddress target = eps[1]->GetAddress();
    switch (operation)
    {
    case UetOperation::WRITE:
        eps[1]->RegisterMemory(key, std::max<uint64_t>(bytes, 1));
        eps[0]->PostWrite(target, key, 0, bytes, UetCompletionCallback(), deliveryMode);
        break;
    case UetOperation::READ:
        eps[1]->RegisterMemory(key, bytes);
        eps[0]->PostRead(target, key, 0, bytes, UetCompletionCallback(), deliveryMode);
        break;
    case UetOperation::SEND:
        eps[1]->PostReceive(0, bytes, UetDeliveryCallback());
        eps[0]->PostSend(target, bytes, UetCompletionCallback(), deliveryMode);
        break;
    case UetOperation::TAGGED_SEND:
        eps[1]->PostTaggedReceive(0, tag, 0, bytes, UetDeliveryCallback());
        eps[0]->PostTaggedSend(target, tag, bytes, UetCompletionCallback(), deliveryMode);
        break;
    }
    Ptr<FabricProgressReporter> progress;
    if (!cmd.IsQuiet())
    {
        progress = CreateObject<FabricProgressReporter>();
        progress->SetName("uet-write");
        progress->Watch(monitor);
    }
    Simulator::Run();
    bool healthy = monitor->ReportEndOfRun(std::cerr); // stalls, lossless drops

    const double lineRate = DataRate(rate).GetBitRate();
    const uint32_t overhead = read ? READ_DATA_OVERHEAD : REQUEST_OVERHEAD;
    const double expected = lineRate * bytes / (bytes + double(frames) * overhead);
    std::cout << std::fixed << std::setprecision(2) << "uet-write: one "
              << UetOperationName(operation) << " of " << bytes << " B over "
              << UetDeliveryModeName(deliveryMode) << ", " << nics[0]->GetAddress(0) << " -> "
              << nics[1]->GetAddress(0) << " at " << rate << ", Mtu " << mtu;
    std::cout << "\n";
    if (loss > 0)
    {
        std::cout << "  loss: " << loss << " of the " << frames << " data frames dropped at node "
                  << (read ? 0 : 1) << "\n";
    }
    bool ok = rec[0]->completions.size() == 1;
    if (rec[0]->completions.empty())
    {
        std::cout << "  completion: none (the operation did not complete)\n";
    }
    for (const auto& c : rec[0]->completions)
    {
        double fct = c.GetDuration().GetSeconds();
        double goodput = c.ok && fct > 0 ? c.bytes * 8 / fct : 0;
        ok = ok && c.ok;
        std::cout << "  completion: " << (c.ok ? "ok" : "FAILED") << " (RC_"
                  << UetSesHeader::ReturnCodeName(c.returnCode) << "), " << c.modifiedBytes
                  << " B, FCT " << fct * 1e6 << " us, goodput " << goodput / 1e9 << " Gb/s"
                  << (c.ok ? "" : ": " + c.error) << "\n  ";
        if (expected > 0)
        {
            std::cout << 100 * goodput / expected << " % of the ";
        }
        std::cout << "expected " << expected / 1e9 << " Gb/s = " << lineRate / 1e9
                  << " Gb/s x payload / (payload + " << overhead << " B per packet)\n";
    }
    std::cout << "  PDC events:\n";
    for (const auto& e : events)
    {
        std::cout << "    " << e << "\n";
    }
    // Counters, one column per NIC; the notes say what caused the retransmissions (Retransmit
    // trace events: one per NACK, RTO expiry or inferred-loss decision) and the NACK codes.
    const UetNicCounters& c0 = nics[0]->GetCounters();
    const UetNicCounters& c1 = nics[1]->GetCounters();
    auto nackNames = [](const std::map<uint8_t, uint64_t>& m) {
        std::map<std::string, uint64_t> named;
        for (const auto& [code, n] : m)
        {
            named[UetPdsHeader::NackCodeName(code)] += n;
        }
        return named;
    };
    auto note = [](const std::map<std::string, uint64_t>& m0,
                   const std::map<std::string, uint64_t>& m1,
                   const std::string& what) {
        std::string n0 = ByKey(m0);
        std::string n1 = ByKey(m1);
        std::string both = n0.empty() ? "" : "node 0 " + what + ": " + n0;
        both += n1.empty() ? "" : (both.empty() ? "" : "; ") + ("node 1 " + what + ": " + n1);
        return both;
    };
    auto row = [](const std::string& label, uint64_t v0, uint64_t v1, const std::string& n) {
        std::cout << "    " << std::left << std::setw(20) << label << std::right << std::setw(10)
                  << v0 << std::setw(10) << v1 << (n.empty() ? "" : "  " + n) << "\n";
    };
    std::cout << "  counters                  node 0    node 1\n";
    row("requests sent", c0.dataPacketsSent, c1.dataPacketsSent, "data and Close");
    row("retransmitted",
        c0.retransmissions,
        c1.retransmissions,
        note(rec[0]->retxCauses, rec[1]->retxCauses, "triggers"));
    row("RTOs", c0.rtoExpirations, c1.rtoExpirations, "");
    row("data received", c0.dataPacketsReceived, c1.dataPacketsReceived, "");
    row("duplicates received", c0.duplicatesReceived, c1.duplicatesReceived, "");
    row("ACKs sent", c0.acksSent, c1.acksSent, "");
    row("ACKs received", c0.acksReceived, c1.acksReceived, "");
    row("NACKs sent",
        c0.nacksSent,
        c1.nacksSent,
        note(nackNames(rec[0]->nacksTx), nackNames(rec[1]->nacksTx), "codes"));
    row("NACKs received",
        c0.nacksReceived,
        c1.nacksReceived,
        note(nackNames(rec[0]->nacksRx), nackNames(rec[1]->nacksRx), "codes"));
    // Conservation: every posted byte completed, failed or is pending at the initiator, and
    // what completed arrived (delivered at the target; for READ, returned to the initiator).
    const UetNicCounters& ini = nics[0]->GetCounters();
    const uint64_t arrived =
        read ? (rec[0]->completions.empty() ? 0 : rec[0]->completions[0].modifiedBytes)
             : nics[1]->GetCounters().bytesDelivered;
    const bool conserved =
        ini.bytesPosted == ini.bytesCompleted + ini.bytesFailed + nics[0]->GetPendingBytes() &&
        arrived == ini.bytesCompleted;
    std::cout << "  conservation " << (conserved ? "ok" : "VIOLATED") << ": posted "
              << ini.bytesPosted << " B = completed " << ini.bytesCompleted << " + failed "
              << ini.bytesFailed << " + pending " << nics[0]->GetPendingBytes() << "; "
              << (read ? "returned " : "delivered ") << arrived << "\n";
    if (!csvPath.empty())
    {
        std::cout << "  wrote " << csvPath << "\n";
    }
    Simulator::Destroy();
    return ok && conserved && healthy ? 0 : 1;
}
