/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * rail-allreduce-view.h: the main job's view of the fabric per size of its sweep (switch tiers:
 * utilization, max queue, PFC pauses, ECN marks, drops, trims; NICs: CNPs or UET's NACKs,
 * retransmissions, timeouts, host PFC; per link direction: utilization), measured in every
 * MPI process over its own switches and NICs and merged at process 0.
 */
#ifndef RAIL_ALLREDUCE_VIEW_H
#define RAIL_ALLREDUCE_VIEW_H

#include "ns3/ai-fabric-module.h"
#include "ns3/core-module.h"
#include "ns3/network-module.h"

#include <algorithm>
#include <ostream>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \brief Collects the fabric's counters between two snapshots (a size's measured iterations),
 *        and writes them as the fabric, NIC and links CSVs.
 *
 * Snapshot() and Measure() run at the same simulated time in every process (the sweep's
 * barrier releases); each process counts what its own nodes did (the others' copies stay at
 * zero), Merge() adds the counts up over processes (queue maxima: the largest), and process 0
 * writes. A sequential run writes what it measured.
 */
class RailAllreduceView
{
  public:
    /**
     * \param topo the fabric
     * \param sample how often the switches' egress queues are sampled for the max queue
     * \param uet the NICs are UET (else RoCE)
     * \param links also keep per-direction link rows (the --plot-data links CSV)
     */
    RailAllreduceView(Ptr<FabricTopologyHelper> topo, Time sample, bool uet, bool links)
        : m_topo(topo),
          m_sample(sample),
          m_uet(uet),
          m_links(links)
    {
        auto sw = [](Ptr<Node> n) { return n->GetObject<FabricSwitch>(); };
        auto rail = DynamicCast<RailOptimizedTopologyHelper>(topo);
        if (rail)
        {
            uint32_t perRail = topo->GetNLeaves() / topo->GetGpusPerServer();
            for (uint32_t r = 0; r < topo->GetGpusPerServer(); ++r)
            {
                Element e;
                e.name = "rail" + std::to_string(r);
                for (uint32_t i = 0; i < perRail; ++i)
                {
                    e.switches.push_back(sw(rail->GetLeaf(r, i)));
                }
                m_elements.push_back(e);
            }
        }
        else
        {
            Element e;
            e.name = "leaf";
            for (uint32_t i = 0; i < topo->GetNLeaves(); ++i)
            {
                e.switches.push_back(sw(topo->GetLeaf(i)));
            }
            m_elements.push_back(e);
        }
        for (uint32_t i = 0; i < topo->GetNSpines(); ++i)
        {
            Element e;
            e.name = "spine" + std::to_string(i);
            e.switches.push_back(sw(topo->GetSpine(i)));
            m_elements.push_back(e);
        }
        Element nv;
        nv.name = "nvswitch";
        for (uint32_t s = 0; s < topo->GetNNvSwitches(); ++s)
        {
            nv.switches.push_back(sw(topo->GetNvSwitch(s)));
        }
        m_elements.push_back(nv);
        for (auto& e : m_elements)
        {
            for (auto& s : e.switches)
            {
                for (uint32_t p = 0; p < s->GetNPorts(); ++p)
                {
                    e.capacityBps += double(s->GetPort(p)->GetDataRate().GetBitRate());
                    e.ports.push_back(s->GetPort(p));
                    AddToDirection(topo->GetNodeType(s->GetObject<Node>()), s->GetPort(p));
                }
            }
        }
    }

    /// Start of a measured interval.
    void Snapshot()
    {
        m_start = Simulator::Now();
        m_base = Counts();
        m_maxQueue.assign(m_elements.size(), 0);
        m_event.Cancel();
        m_event = Simulator::Schedule(m_sample, &RailAllreduceView::Sample, this);
    }

    /**
     * \brief End of a measured interval: keep this process's counts for \p bytes.
     * \param bytes the size the interval measured
     */
    void Measure(uint64_t bytes)
    {
        m_event.Cancel();
        std::vector<uint64_t> now = Counts();
        Interval in;
        in.bytes = bytes;
        in.length = Simulator::Now() - m_start;
        for (std::size_t i = 0; i < now.size(); ++i)
        {
            in.sums.push_back(now[i] - m_base[i]);
        }
        in.maxQueue = m_maxQueue;
        m_intervals.push_back(in);
    }

    /// \brief Collective across MPI processes (every process calls it after the run): add
    ///        up every process's counts (queue maxima: the largest).
    void Merge()
    {
        std::vector<uint64_t> sums;
        std::vector<uint64_t> maxima;
        for (const auto& in : m_intervals)
        {
            sums.insert(sums.end(), in.sums.begin(), in.sums.end());
            maxima.insert(maxima.end(), in.maxQueue.begin(), in.maxQueue.end());
        }
        sums = FabricMpi::SumEach(sums);
        maxima = FabricMpi::MaxEach(maxima);
        std::size_t s = 0;
        std::size_t m = 0;
        for (auto& in : m_intervals)
        {
            std::copy_n(sums.begin() + s, in.sums.size(), in.sums.begin());
            std::copy_n(maxima.begin() + m, in.maxQueue.size(), in.maxQueue.begin());
            s += in.sums.size();
            m += in.maxQueue.size();
        }
    }

    /// \param os the fabric CSV: its header, then per interval and element a row
    void WriteFabric(std::ostream& os) const
    {
        os << "bytes,element,utilization,active_utilization,max_queue_bytes,pfc_pauses,"
              "ecn_marks,drops"
           << (m_uet ? ",trims\n" : "\n");
        for (const auto& in : m_intervals)
        {
            const double seconds = in.length.GetSeconds();
            std::size_t at = 0;
            for (std::size_t k = 0; k < m_elements.size(); ++k)
            {
                const Element& e = m_elements[k];
                const uint64_t* c = &in.sums[at];
                double util = seconds > 0 ? c[TX] * 8.0 / (e.capacityBps * seconds) : 0;
                // Over the ports that sent anything: idle uplinks do not dilute busy ports.
                double activeBytes = 0;
                double activeBps = 0;
                for (std::size_t p = 0; p < e.ports.size(); ++p)
                {
                    const uint64_t sent = c[ELEMENT_COUNTS + p];
                    if (sent > 0)
                    {
                        activeBytes += sent;
                        activeBps += double(e.ports[p]->GetDataRate().GetBitRate());
                    }
                }
                double active =
                    seconds > 0 && activeBps > 0 ? activeBytes * 8 / (activeBps * seconds) : 0;
                os << in.bytes << "," << e.name << "," << util << "," << active << ","
                   << in.maxQueue[k] << "," << c[PAUSES] << "," << c[MARKS] << "," << c[DROPS];
                if (m_uet)
                {
                    os << "," << c[TRIMS];
                }
                os << "\n";
                at += ELEMENT_COUNTS + e.ports.size();
            }
        }
    }

    /// \param os the NIC CSV: its header, then a row per interval
    void WriteNic(std::ostream& os) const
    {
        os << (m_uet ? "bytes,trim_nacks,nacks,retransmitted_packets,timeouts,ce_received,"
                     : "bytes,cnps,retransmitted_packets,timeouts,naks,")
           << "nic_pfc_pauses_sent,nic_pfc_pauses_received,nic_paused_us\n";
        for (const auto& in : m_intervals)
        {
            const uint64_t* c = &in.sums[NicOffset()];
            os << in.bytes << ",";
            for (uint32_t i = 0; i < NicTransportCounts(); ++i)
            {
                os << c[i] << ",";
            }
            c += NicTransportCounts();
            os << c[0] << "," << c[1] << ","
               << TimeStep(static_cast<int64_t>(c[2])).GetSeconds() * 1e6 << "\n";
        }
    }

    /// \param os the links CSV (--plot-data): its header, then per interval and direction a row
    void WriteLinks(std::ostream& os) const
    {
        os << "bytes,direction,ports,active_ports,active_utilization,max_utilization\n";
        for (const auto& in : m_intervals)
        {
            const double seconds = in.length.GetSeconds();
            std::size_t at = NicOffset() + NicTransportCounts() + 3;
            for (const auto& d : m_directions)
            {
                uint32_t active = 0;
                double sum = 0;
                double max = 0;
                for (std::size_t i = 0; i < d.ports.size(); ++i)
                {
                    const uint64_t tx = in.sums[at + i];
                    double rate = double(d.ports[i]->GetDataRate().GetBitRate());
                    double util = seconds > 0 ? tx * 8.0 / (rate * seconds) : 0;
                    if (tx > 0)
                    {
                        ++active;
                        sum += util;
                        max = std::max(max, util);
                    }
                }
                os << in.bytes << "," << d.name << "," << d.ports.size() << "," << active << ","
                   << (active ? sum / active : 0) << "," << max << "\n";
                at += d.ports.size();
            }
        }
    }

  private:
    /// Per element, its totals come first (TX .. TRIMS), then each port's bytes sent.
    enum ElementCount
    {
        TX,
        PAUSES,
        MARKS,
        DROPS,
        TRIMS,
        ELEMENT_COUNTS
    };

    /// One tier of switches whose counters are reported together.
    struct Element
    {
        std::string name;                        //!< e.g. "rail0", "spine3", "nvswitch"
        std::vector<Ptr<FabricSwitch>> switches; //!< its switches
        std::vector<Ptr<PfcNetDevice>> ports;    //!< their ports, switch by switch
        double capacityBps{0};                   //!< sum of port rates
    };

    /// The switch ports that send in one direction of one link tier (e.g. leaf ports to GPUs).
    struct LinkDirection
    {
        std::string name;                     //!< "<switch type>><peer type>", e.g. "leaf>gpu"
        std::vector<Ptr<PfcNetDevice>> ports; //!< its ports
    };

    /// One measured interval: the counts this process saw (after Merge(): every process's).
    struct Interval
    {
        uint64_t bytes{0};              //!< the size it measured
        Time length;                    //!< its length
        std::vector<uint64_t> sums;     //!< Counts() at its end minus at its start
        std::vector<uint64_t> maxQueue; //!< per element, the largest egress queue (bytes)
    };

    /**
     * \brief File a switch port under its direction "<switch type>><peer type>".
     * \param switchType the type of the switch that owns the port
     * \param port the port
     */
    void AddToDirection(FabricNodeType switchType, Ptr<PfcNetDevice> port)
    {
        Ptr<Channel> channel = port->GetChannel();
        Ptr<NetDevice> peer =
            channel->GetDevice(0) == port ? channel->GetDevice(1) : channel->GetDevice(0);
        std::string name = std::string(FabricNodeTypeName(switchType)) + ">" +
                           FabricNodeTypeName(m_topo->GetNodeType(peer->GetNode()));
        auto it = std::find_if(m_directions.begin(),
                               m_directions.end(),
                               [&name](const LinkDirection& d) { return d.name == name; });
        if (it == m_directions.end())
        {
            it = m_directions.insert(m_directions.end(), LinkDirection{name, {}});
        }
        it->ports.push_back(port);
    }

    /**
     * \param port a port
     * \return the bytes it has sent so far, all priorities
     */
    static uint64_t PortTxBytes(Ptr<PfcNetDevice> port)
    {
        uint64_t tx = 0;
        for (uint64_t b : port->GetCounters().txBytes)
        {
            tx += b;
        }
        return tx;
    }

    /// \return where the NIC counts start in Counts()
    std::size_t NicOffset() const
    {
        std::size_t n = 0;
        for (const auto& e : m_elements)
        {
            n += ELEMENT_COUNTS + e.ports.size();
        }
        return n;
    }

    /// \return NIC counts of the transport (RoCE: CNPs, retransmissions, timeouts, NAKs; UET:
    ///         trim NACKs, NACKs, retransmissions, RTOs, CE received)
    uint32_t NicTransportCounts() const
    {
        return m_uet ? 5 : 4;
    }

    /**
     * \return every counter, in a fixed layout: per element its totals and its ports' bytes;
     *         the NICs' transport counts, PFC pauses sent and received and paused time (ns-3
     *         time steps); with links, every direction's ports' bytes
     */
    std::vector<uint64_t> Counts() const
    {
        std::vector<uint64_t> c;
        for (const auto& e : m_elements)
        {
            const std::size_t at = c.size();
            c.resize(at + ELEMENT_COUNTS, 0);
            for (const auto& s : e.switches)
            {
                for (uint32_t p = 0; p < s->GetNPorts(); ++p)
                {
                    const PfcPortCounters& pc = s->GetPort(p)->GetCounters();
                    for (uint8_t q = 0; q < 8; ++q)
                    {
                        c[at + TX] += pc.txBytes[q];
                        c[at + PAUSES] += pc.pauseTx[q];
                    }
                    c[at + MARKS] += s->GetCounters().ecnMarks[p];
                }
                for (auto d : s->GetCounters().drops)
                {
                    c[at + DROPS] += d;
                }
                c[at + TRIMS] += s->GetCounters().GetTrims();
            }
            for (const auto& port : e.ports)
            {
                c.push_back(PortTxBytes(port));
            }
        }
        std::vector<uint64_t> nic(NicTransportCounts() + 3, 0);
        int64_t paused = 0;
        for (uint32_t r = 0; r < m_topo->GetNRanks(); ++r)
        {
            if (m_uet)
            {
                const UetNicCounters& u = m_topo->GetUetNic(r)->GetCounters();
                nic[0] += u.trimNacksReceived;
                nic[1] += u.nacksReceived;
                nic[2] += u.retransmissions;
                nic[3] += u.rtoExpirations;
                nic[4] += u.ceReceived;
            }
            else
            {
                RoceQpCounters q = m_topo->GetNic(r)->GetTotalQpCounters();
                nic[0] += q.cnpsTx;
                nic[1] += q.retransmittedPackets;
                nic[2] += q.timeouts;
                nic[3] += q.naksRx;
            }
            Ptr<FabricNic> core = m_topo->GetNicCore(r);
            for (uint32_t p = 0; p < core->GetNPorts(); ++p)
            {
                const PfcPortCounters& pc = core->GetPort(p)->GetCounters();
                for (uint8_t q = 0; q < 8; ++q)
                {
                    nic[NicTransportCounts()] += pc.pauseTx[q];
                    nic[NicTransportCounts() + 1] += pc.pauseRx[q];
                    paused += pc.pausedTime[q].GetTimeStep();
                }
            }
        }
        nic[NicTransportCounts() + 2] = static_cast<uint64_t>(paused);
        c.insert(c.end(), nic.begin(), nic.end());
        if (m_links)
        {
            for (const auto& d : m_directions)
            {
                for (const auto& port : d.ports)
                {
                    c.push_back(PortTxBytes(port));
                }
            }
        }
        return c;
    }

    /// Sample the egress queues (max queue per element).
    void Sample()
    {
        for (std::size_t k = 0; k < m_elements.size(); ++k)
        {
            for (const auto& s : m_elements[k].switches)
            {
                for (uint32_t p = 0; p < s->GetNPorts(); ++p)
                {
                    m_maxQueue[k] = std::max(m_maxQueue[k], s->GetMmu()->GetEgressPortBytes(p));
                }
            }
        }
        m_event = Simulator::Schedule(m_sample, &RailAllreduceView::Sample, this);
    }

    Ptr<FabricTopologyHelper> m_topo;
    Time m_sample;
    bool m_uet;   //!< the NICs are UET (else RoCE)
    bool m_links; //!< keep per-direction rows
    std::vector<Element> m_elements;
    std::vector<LinkDirection> m_directions; //!< switch ports by link direction
    Time m_start;                            //!< start of the current interval
    std::vector<uint64_t> m_base;            //!< Counts() at its start
    std::vector<uint64_t> m_maxQueue;        //!< per element, since its start
    std::vector<Interval> m_intervals;       //!< measured intervals, in order
    EventId m_event;                         //!< next Sample()
};

} // namespace ns3

#endif /* RAIL_ALLREDUCE_VIEW_H */
