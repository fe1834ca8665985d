/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * failure-lab.h: what the failure labs (ecn-misprofile, link-flap) share: the training job
 * (a ring AllReduce repeated on a small Clos), its busbw per iteration and the counters an
 * operator reads first (per switch: ECN marks, PFC XOFF, drops by reason; per GPU: CNPs,
 * CE-marked packets, retransmissions, local ACK timeouts).
 */
#ifndef FAILURE_LAB_H
#define FAILURE_LAB_H

#include "ns3/ai-fabric-module.h"
#include "ns3/core-module.h"
#include "ns3/network-module.h"

#include <algorithm>
#include <iomanip>
#include <ostream>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \brief One run of a failure lab: a 4 x 2-GPU Clos (one server per leaf, NVLink inside the
 *        server, 400 Gb/s RoCEv2 NICs with DCQCN), a ring AllReduce enqueued \p iters times,
 *        then the job's records and the fabric's counters.
 */
class FailureLab
{
  public:
    /**
     * \brief Build the fabric (not yet the job).
     * \param spines spine switches (1 or 2)
     * \param uplinkRate leaf-spine cable rate ("800Gbps": with one spine the fabric stays
     *        non-blocking)
     * \param localAckTimeout RoCE LocalAckTimeout exponent (4.096 us x 2^value), 1..31
     */
    FailureLab(uint32_t spines, const std::string& uplinkRate, uint32_t localAckTimeout)
    {
        m_topo = CreateObject<ClosTopologyHelper>();
        m_topo->SetAttribute("Servers", UintegerValue(4));
        m_topo->SetAttribute("GpusPerServer", UintegerValue(2));
        m_topo->SetAttribute("ServersPerRack", UintegerValue(1));
        m_topo->SetAttribute("Spines", UintegerValue(spines));
        m_topo->SetAttribute("LeafSpineDataRate", StringValue(uplinkRate));
        m_topo->GetNicHelper().SetCongestionControl("dcqcn");
        m_topo->GetNicHelper().SetNicAttribute("LocalAckTimeout", UintegerValue(localAckTimeout));
        m_topo->Install();
    }

    /// Dispose of the fabric and reset the simulator (the next run starts at 0).
    ~FailureLab()
    {
        m_topo->Dispose();
        Simulator::Destroy();
    }

    /// \return the fabric
    Ptr<ClosTopologyHelper> GetTopology() const
    {
        return m_topo;
    }

    /**
     * \brief Enqueue the job: \p iters ring AllReduces of \p bytes (Simple protocol, \p channels
     *        rings), back to back, and run the simulation to its end.
     * \param bytes AllReduce size, bytes (> 0)
     * \param iters iterations (>= 1)
     * \param channels rings in parallel (>= 1)
     */
    void RunJob(uint64_t bytes, uint32_t iters, uint32_t channels)
    {
        CollectiveHelper coll;
        coll.SetTopology(m_topo);
        coll.SetCommunicatorAttribute("Algorithm", StringValue("Ring"));
        coll.SetCommunicatorAttribute("Protocol", StringValue("Simple"));
        coll.SetCommunicatorAttribute("Channels", UintegerValue(channels));
        coll.AssignStreams(1);
        Ptr<CollectiveCommunicator> world = coll.CreateWorldCommunicator("job");
        for (uint32_t i = 0; i < iters; ++i)
        {
            world->Enqueue(CollectiveOp::ALL_REDUCE, bytes);
        }
        Simulator::Run();
        m_records = world->GetRecords();
        m_end = Simulator::Now();
    }

    /// \return the job's collectives, in order
    const std::vector<CollectiveRecord>& GetRecords() const
    {
        return m_records;
    }

    /**
     * \param iters the iterations enqueued
     * \return true when \p iters iterations completed without failure
     */
    bool Completed(uint32_t iters) const
    {
        uint32_t done = 0;
        for (const auto& r : m_records)
        {
            done += r.completed && !r.failed ? 1 : 0;
        }
        return done == iters;
    }

    /// \return the mean busbw of the completed iterations, GB/s (0 if none)
    double GetMeanBusBw() const
    {
        double sum = 0;
        uint32_t n = 0;
        for (const auto& r : m_records)
        {
            if (r.completed)
            {
                sum += r.busBw;
                ++n;
            }
        }
        return n ? sum / n : 0;
    }

    /**
     * \return the job's span: the first iteration's start to the last one's end (0 if no
     *         record); iterations overlap (a rank starts the next when it finished its part),
     *         so this, not the sum of the iterations' times, is what the job took
     */
    Time GetJobTime() const
    {
        Time end;
        for (const auto& r : m_records)
        {
            end = std::max(end, r.end);
        }
        return m_records.empty() ? Time() : end - m_records.front().start;
    }

    /**
     * \param sw a switch
     * \return its ECN (CE) marks, all egress ports
     */
    static uint64_t GetEcnMarks(Ptr<FabricSwitch> sw)
    {
        uint64_t marks = 0;
        for (uint64_t m : sw->GetCounters().ecnMarks)
        {
            marks += m;
        }
        return marks;
    }

    /**
     * \param rank a GPU rank, 0..7
     * \return its transport counters (every plug-in, every QP)
     */
    FabricTransportCounters GetRankCounters(uint32_t rank) const
    {
        FabricTransportCounters c;
        for (const auto& plugin : m_topo->GetTransports())
        {
            plugin->AddCounters(m_topo->GetRank(rank), c);
        }
        return c;
    }

    /**
     * \brief One line per iteration: "iter k: start, time, busbw".
     * \param os the stream
     */
    void PrintIterations(std::ostream& os) const
    {
        std::ios state(nullptr);
        state.copyfmt(os);
        for (const auto& r : m_records)
        {
            os << "    iter " << r.seq << ": start " << std::fixed << std::setprecision(1)
               << std::setw(7) << r.start.GetSeconds() * 1e6 << " us, time " << std::setw(7)
               << r.GetDuration().GetSeconds() * 1e6 << " us, busbw " << std::setprecision(2)
               << std::setw(6) << r.busBw << " GB/s" << (r.completed ? "" : " (not completed)")
               << "\n";
        }
        os.copyfmt(state);
    }

    /**
     * \brief One line per scale-out switch: ECN marks, PFC XOFF decisions, drops by reason
     *        (the reasons with drops only).
     * \param os the stream
     */
    void PrintSwitches(std::ostream& os) const
    {
        for (const auto& sw : m_topo->GetScaleOutSwitches())
        {
            const SwitchCounters& c = sw->GetCounters();
            uint64_t xoff = 0;
            for (const auto& port : c.xoffSent)
            {
                for (uint64_t n : port)
                {
                    xoff += n;
                }
            }
            uint64_t linkDown = 0;
            for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
            {
                linkDown += sw->GetPort(p)->GetCounters().drops[size_t(PfcDropReason::LINK_DOWN)];
            }
            os << "    " << std::left << std::setw(7)
               << m_topo->GetNodeName(sw->GetObject<Node>()->GetId()) << std::right << " ECN marks "
               << std::setw(5) << GetEcnMarks(sw) << ", PFC XOFF " << xoff << ", drops: route down "
               << c.drops[size_t(SwitchDropReason::ROUTE_DOWN)] << ", link down " << linkDown
               << ", other " << c.drops.GetTotal() - c.drops[size_t(SwitchDropReason::ROUTE_DOWN)]
               << "\n";
        }
    }

    /**
     * \brief One line per GPU whose transport counters are not all zero: CNPs received,
     *        CE-marked packets received, retransmissions, local ACK timeouts, and its leaf.
     * \param os the stream
     */
    void PrintGpus(std::ostream& os) const
    {
        bool any = false;
        for (uint32_t r = 0; r < m_topo->GetNRanks(); ++r)
        {
            const FabricTransportCounters c = GetRankCounters(r);
            if (c.cnpsRx + c.ceRx + c.retransmissions + c.timeouts == 0)
            {
                continue;
            }
            any = true;
            os << "    gpu" << r << " (on " << m_topo->GetNodeName(m_topo->GetLeafOf(r)->GetId())
               << "): CNPs received " << c.cnpsRx << ", CE-marked received " << c.ceRx
               << ", retransmitted " << c.retransmissions << ", ACK timeouts " << c.timeouts
               << "\n";
        }
        if (!any)
        {
            os << "    every GPU: no CNP, no CE mark, no retransmission\n";
        }
    }

  private:
    Ptr<ClosTopologyHelper> m_topo;          //!< the fabric
    std::vector<CollectiveRecord> m_records; //!< the job's collectives
    Time m_end;                              //!< simulated time at the end of the run
};

} // namespace ns3

#endif /* FAILURE_LAB_H */
