/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "fabric-mpi.h"

#include "ns3/abort.h"
#include "ns3/fabric-command-line.h"
#include "ns3/fabric-input-error.h"
#include "ns3/fabric-simulator-impl.h"
#include "ns3/global-value.h"
#include "ns3/pfc-remote-exchange.h"
#include "ns3/quaternary-heap-scheduler.h"
#include "ns3/simulator.h"
#include "ns3/string.h"

#include <cstdio>
#include <cstdlib>
#include <limits>
#include <sstream>
#include <vector>

#ifdef NS3_MPI
#include "ns3/mpi-interface.h"

#include <mpi.h>
#endif

namespace ns3
{

namespace
{
/**
 * \param name an environment variable
 * \return its value as a whole number, 0 if unset or not a number
 */
uint32_t
EnvCount(const char* name)
{
    const char* v = std::getenv(name);
    if (!v || *v == '\0')
    {
        return 0;
    }
    char* end = nullptr;
    unsigned long n = std::strtoul(v, &end, 10);
    return (*end == '\0' && n <= std::numeric_limits<uint32_t>::max()) ? uint32_t(n) : 0;
}
} // namespace

bool
FabricMpi::IsAvailable()
{
#ifdef NS3_MPI
    return true;
#else
    return false;
#endif
}

uint32_t
FabricMpi::GetLaunchedSize()
{
    if (uint32_t n = EnvCount("OMPI_COMM_WORLD_SIZE"))
    {
        return n;
    }
    if (uint32_t n = EnvCount("PMI_SIZE"))
    {
        return n;
    }
    return std::getenv("PMIX_RANK") ? 1 : 0;
}

bool
FabricMpi::Enable(int* argc, char*** argv)
{
    const uint32_t launched = GetLaunchedSize();
    if (launched == 0)
    {
        return false;
    }
#ifdef NS3_MPI
    if (!MpiInterface::IsEnabled())
    {
        GlobalValue::Bind("SimulatorImplementationType",
                          StringValue("ns3::DistributedSimulatorImpl"));
        // ai-fabric's O(1) event queue (ns-3's default map costs the distributed engine about
        // a quarter of its time); --SchedulerType still chooses another.
        GlobalValue::Bind("SchedulerType", StringValue("ns3::DelayClassScheduler"));
        MpiInterface::Enable(argc, argv);
    }
    return true;
#else
    (void)argc;
    (void)argv;
    FABRIC_INPUT_ERROR_IF(launched > 1,
                          "started as " << launched
                                        << " MPI processes, but this build has no MPI: each "
                                           "would run the whole simulation alone. Build ns-3 "
                                           "with MPI (bash tools/ai-fabric.sh mpi-build) or "
                                           "run one process");
    return false;
#endif
}

bool
FabricMpi::ParseEventOrder(const std::string& name, EventOrder* order)
{
    if (name == "causal")
    {
        *order = EventOrder::CAUSAL;
        return true;
    }
    if (name == "fast")
    {
        *order = EventOrder::FAST;
        return true;
    }
    return false;
}

void
FabricMpi::SelectEngine(EventOrder order)
{
    const bool causal = order == EventOrder::CAUSAL;
    if (IsEnabled())
    {
        GlobalValue::Bind("SimulatorImplementationType",
                          StringValue(causal ? "ns3::CausalDistributedSimulatorImpl"
                                             : "ns3::DistributedSimulatorImpl"));
    }
    else if (causal)
    {
        GlobalValue::Bind("SimulatorImplementationType", StringValue("ns3::CausalSimulatorImpl"));
    }
    GlobalValue::Bind(
        "SchedulerType",
        StringValue(causal ? "ns3::CausalOrderScheduler" : "ns3::DelayClassScheduler"));
}

bool
FabricMpi::IsEnabled()
{
#ifdef NS3_MPI
    return MpiInterface::IsEnabled();
#else
    return false;
#endif
}

uint32_t
FabricMpi::GetSystemId()
{
#ifdef NS3_MPI
    return IsEnabled() ? MpiInterface::GetSystemId() : 0;
#else
    return 0;
#endif
}

uint32_t
FabricMpi::GetSize()
{
#ifdef NS3_MPI
    return IsEnabled() ? MpiInterface::GetSize() : 1;
#else
    return 1;
#endif
}

bool
FabricMpi::IsLocal(const Ptr<const Node>& node)
{
    return !IsEnabled() || node->GetSystemId() == GetSystemId();
}

std::string
FabricMpi::Gather(const std::string& text)
{
#ifdef NS3_MPI
    if (!IsEnabled())
    {
        return text;
    }
    const int size = static_cast<int>(GetSize());
    FABRIC_INPUT_ERROR_IF(text.size() > size_t(std::numeric_limits<int>::max()),
                          "FabricMpi::Gather: " << text.size()
                                                << " bytes from one process; at most 2 GiB");
    int mine = static_cast<int>(text.size());
    std::vector<int> lengths(size, 0);
    MPI_Comm comm = MpiInterface::GetCommunicator();
    MPI_Gather(&mine, 1, MPI_INT, lengths.data(), 1, MPI_INT, 0, comm);
    std::vector<int> offsets(size, 0);
    int64_t total = 0;
    for (int i = 0; i < size; ++i)
    {
        offsets[i] = static_cast<int>(total);
        total += lengths[i];
    }
    FABRIC_INPUT_ERROR_IF(GetSystemId() == 0 && total > std::numeric_limits<int>::max(),
                          "FabricMpi::Gather: " << total << " bytes in all; at most 2 GiB");
    std::string all(GetSystemId() == 0 ? size_t(total) : 0, '\0');
    MPI_Gatherv(text.data(),
                mine,
                MPI_CHAR,
                all.data(),
                lengths.data(),
                offsets.data(),
                MPI_CHAR,
                0,
                comm);
    return all;
#else
    return text;
#endif
}

uint64_t
FabricMpi::Sum(uint64_t value)
{
#ifdef NS3_MPI
    if (!IsEnabled())
    {
        return value;
    }
    uint64_t sum = 0;
    MPI_Allreduce(&value, &sum, 1, MPI_UINT64_T, MPI_SUM, MpiInterface::GetCommunicator());
    return sum;
#else
    return value;
#endif
}

namespace
{
/**
 * \brief Element-by-element reduction of every process's values (MPI_Allreduce).
 * \param values this process's values
 * \param max true: the largest, false: the sum
 * \param what the caller's name, for the error
 * \return the reduced values (\p values without MPI)
 */
std::vector<uint64_t>
ReduceEach(const std::vector<uint64_t>& values, bool max, const char* what)
{
#ifdef NS3_MPI
    if (!FabricMpi::IsEnabled())
    {
        return values;
    }
    MPI_Comm comm = MpiInterface::GetCommunicator();
    uint64_t n = values.size();
    uint64_t most = 0;
    uint64_t least = 0;
    MPI_Allreduce(&n, &most, 1, MPI_UINT64_T, MPI_MAX, comm);
    MPI_Allreduce(&n, &least, 1, MPI_UINT64_T, MPI_MIN, comm);
    NS_ABORT_MSG_IF(most != least,
                    "FabricMpi::" << what << ": processes give " << least << " to " << most
                                  << " values; every process must give as many");
    NS_ABORT_MSG_IF(n > uint64_t(std::numeric_limits<int>::max()),
                    "FabricMpi::" << what << ": " << n << " values; at most 2^31 - 1");
    std::vector<uint64_t> out(values.size(), 0);
    MPI_Allreduce(values.data(),
                  out.data(),
                  static_cast<int>(n),
                  MPI_UINT64_T,
                  max ? MPI_MAX : MPI_SUM,
                  comm);
    return out;
#else
    return values;
#endif
}
} // namespace

std::vector<uint64_t>
FabricMpi::SumEach(const std::vector<uint64_t>& values)
{
    return ReduceEach(values, false, "SumEach");
}

std::vector<uint64_t>
FabricMpi::MaxEach(const std::vector<uint64_t>& values)
{
    return ReduceEach(values, true, "MaxEach");
}

void
FabricMpi::Disable()
{
#ifdef NS3_MPI
    if (IsEnabled())
    {
        MpiInterface::Disable();
    }
#endif
}

void
FabricMpi::SelectEngine(const FabricCommandLine& cmd,
                        const std::string& order,
                        const std::string& simulator,
                        const std::string& scheduler)
{
    if (order.empty())
    {
        FABRIC_INPUT_ERROR_IF(GetSize() > 1,
                              "--order=causal (or fast) is needed across "
                                  << GetSize()
                                  << " MPI processes, instead of --simulator and "
                                     "--scheduler");
        SetSimulatorImpl(simulator);  // names a bad --simulator
        SetEventScheduler(scheduler); // names a bad --scheduler
        return;
    }
    FABRIC_INPUT_ERROR_IF(cmd.IsGiven("simulator") || cmd.IsGiven("scheduler"),
                          "--order=" << order
                                     << " chooses the engine; leave out --simulator and "
                                        "--scheduler");
    SelectEngine(order); // names a bad --order
}

void
FabricMpi::SelectEngine(const std::string& order)
{
    EventOrder eventOrder;
    FABRIC_INPUT_ERROR_IF(!ParseEventOrder(order, &eventOrder),
                          "--order=" << order << " is invalid; use causal or fast");
    SelectEngine(eventOrder);
}

void
FabricMpi::ReportProcess(double runSeconds, const Ptr<const PfcRemoteExchange>& exchange)
{
    if (!std::getenv("AI_FABRIC_MPI_DEBUG"))
    {
        return;
    }
    std::ostringstream line;
    line << "process " << GetSystemId() << ": " << Simulator::GetEventCount()
         << " events, Simulator::Run " << runSeconds << " s, "
         << (exchange ? exchange->GetFramesSent() : 0) << " frames to other processes in "
         << (exchange ? exchange->GetMessagesSent() : 0) << " MPI messages, "
         << (exchange ? exchange->GetNotesSent() : 0) << " notes\n";
    const std::string text = line.str();
    std::fwrite(text.data(), 1, text.size(), stderr);
}

} // namespace ns3
