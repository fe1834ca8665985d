/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: one simulation across MPI processes, on ns-3's distributed engine.
 */
#ifndef FABRIC_MPI_H
#define FABRIC_MPI_H

#include "ns3/node.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

class FabricCommandLine;
class PfcRemoteExchange;

/**
 * \ingroup ai-fabric-helper
 * \brief Runs one ai-fabric simulation across MPI processes on ns-3's own distributed engine
 *        (src/mpi: DistributedSimulatorImpl, the granted-time-window algorithm), the way
 *        ns-3's MPI examples do for point-to-point links.
 *
 * A program calls Enable() first in main(). When it was started by an MPI launcher (mpirun /
 * mpiexec: Open MPI's OMPI_COMM_WORLD_SIZE, or PMI_SIZE / PMIX_RANK in the environment), that
 * initializes MPI through ns-3's MpiInterface and selects ns-3's DistributedSimulatorImpl
 * (with ai-fabric's DelayClassScheduler as its event queue, unless --SchedulerType says otherwise);
 * started without a launcher, nothing changes and the program runs sequentially on the engine
 * it chooses. (ns-3's other MPI engine, NullMessageSimulatorImpl, needs a stop time set in
 * advance, which an ai-fabric run, ending when its work is done, does not have.) Each process is
 * one ns-3 system: topology helpers give every node a system id (FabricTopologyHelper's Systems and
 * PartitionBy attributes), cables between systems carry their frames through MPI (PfcChannel), and
 * each process runs the events of its own nodes only. Process 0 writes the outputs: Gather() brings
 * every process's text to it in system order.
 *
 * Builds against Debian's ns-3 have no MPI module (IsAvailable() is false): there a launch
 * with more than one process is an input error naming the build that has it
 * (tools/ai-fabric.sh mpi-build), instead of N identical sequential runs.
 */
class FabricMpi
{
  public:
    /// \return true if this build has ns-3's MPI module (compiled with NS3_MPI)
    static bool IsAvailable();

    /**
     * \brief Number of processes the MPI launcher started, read from its environment
     *        (OMPI_COMM_WORLD_SIZE, PMI_SIZE); 0 when not started by a launcher.
     * \return processes, >= 0
     */
    static uint32_t GetLaunchedSize();

    /**
     * \brief Initialize MPI and ns-3's distributed engine when started by an MPI launcher.
     *
     * Call first in main(), before any Simulator use (after constructing the program's
     * FabricCommandLine, so that an input error exits 2 with one line).
     * \param argc main()'s argc (MPI may remove its own arguments)
     * \param argv main()'s argv
     * \return true if MPI is now enabled (launched by mpirun, in a build with MPI); false when
     *         not launched by a launcher. A launch of more than one process in a build without
     *         MPI is an input error (FABRIC_INPUT_ERROR: exit 2 in the examples).
     */
    static bool Enable(int* argc, char*** argv);

    /// How simultaneous events are ordered (SelectEngine()).
    enum class EventOrder
    {
        /// CausalOrderScheduler under CausalSimulatorImpl, or under
        /// CausalDistributedSimulatorImpl when MPI is enabled: the same results sequentially
        /// and with any process count; slower (an O(log n) event queue).
        CAUSAL,
        /// ns-3's order (scheduling order at a tie) with DelayClassScheduler: fastest, but a
        /// run across processes differs from the sequential run at ties (like another seed).
        FAST,
    };

    /**
     * \brief Parse an event order name: causal, fast.
     * \param name the name
     * \param[out] order the order
     * \return false when \p name is neither
     */
    static bool ParseEventOrder(const std::string& name, EventOrder* order);

    /**
     * \brief Choose the engine and event queue for \p order (ns-3's global values
     *        SimulatorImplementationType and SchedulerType): with MPI enabled ns-3's
     *        distributed engine (CausalDistributedSimulatorImpl or DistributedSimulatorImpl),
     *        without it CausalSimulatorImpl for CAUSAL and ns-3's default engine for FAST.
     *        Call after Enable() and before any Simulator use (ns-3 reads these values when it
     *        creates the engine; later they have no effect).
     * \param order the order
     */
    static void SelectEngine(EventOrder order);
    /**
     * \brief SelectEngine() for the value of an example's --order flag (causal or fast); any
     *        other value is an input error ("--order=NAME is invalid; use causal or fast").
     * \param order the flag's value
     */
    static void SelectEngine(const std::string& order);

    /**
     * \brief An example's engine flags: with \p order empty, the engine \p simulator and the
     *        event queue \p scheduler (SetSimulatorImpl, SetEventScheduler: one process only;
     *        across MPI processes an input error asking for --order); with \p order given,
     *        SelectEngine(order), and an explicit --simulator or --scheduler is an input error.
     * \param cmd the parsed command line (which flags were given)
     * \param order the --order flag's value ("", causal or fast)
     * \param simulator the --simulator flag's value (an ns-3 simulator TypeId name)
     * \param scheduler the --scheduler flag's value (an ns-3 scheduler TypeId name)
     */
    static void SelectEngine(const FabricCommandLine& cmd,
                             const std::string& order,
                             const std::string& simulator,
                             const std::string& scheduler);
    /// \return true between Enable() (when it enabled MPI) and Disable()
    static bool IsEnabled();

    /// \return this process's system id, 0..GetSize()-1 (0 without MPI)
    static uint32_t GetSystemId();

    /// \return the number of processes of the simulation (1 without MPI)
    static uint32_t GetSize();

    /**
     * \param node a node
     * \return true if \p node belongs to this process (always true without MPI)
     */
    static bool IsLocal(const Ptr<const Node>& node);

    /**
     * \brief Collective: every process calls it with its text; process 0 gets all texts
     *        concatenated in system order, the others an empty string. Without MPI it
     *        returns \p text.
     * \param text this process's part (any bytes, up to 2 GiB in all)
     * \return the concatenation at process 0, "" elsewhere
     */
    static std::string Gather(const std::string& text);

    /**
     * \brief Collective: the sum of every process's \p value (all processes get it).
     * \param value this process's value
     * \return the sum over processes (\p value without MPI)
     */
    static uint64_t Sum(uint64_t value);

    /**
     * \brief Collective: element by element, the sum of every process's \p values (all
     *        processes get it; every process gives as many values).
     * \param values this process's values
     * \return the sums (\p values without MPI); aborts naming the lengths if they differ
     */
    static std::vector<uint64_t> SumEach(const std::vector<uint64_t>& values);
    /**
     * \brief Collective: element by element, the largest of every process's \p values.
     * \param values this process's values (the same count in every process)
     * \return the maxima (\p values without MPI)
     */
    static std::vector<uint64_t> MaxEach(const std::vector<uint64_t>& values);
    /**
     * \brief When the environment has AI_FABRIC_MPI_DEBUG, write this process's figures to
     *        stderr in one write (the processes share it): "process N: E events, Simulator::Run
     *        S s, F frames to other processes in M MPI messages, K notes", the line
     *        tools/bench/mpi-projection.py reads. Call after Simulator::Run().
     * \param runSeconds wall time of Simulator::Run() in this process, s
     * \param exchange the topology's PfcRemoteExchange (null in a run of one process)
     */
    static void ReportProcess(double runSeconds, const Ptr<const PfcRemoteExchange>& exchange);
    /// Finalize MPI (ns-3's MpiInterface::Disable) if Enable() enabled it; call after
    /// Simulator::Destroy().
    static void Disable();
};

} // namespace ns3

#endif /* FABRIC_MPI_H */
