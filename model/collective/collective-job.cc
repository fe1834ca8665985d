/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "collective-job.h"

#include "ns3/abort.h"
#include "ns3/fabric-attribute-checker.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CollectiveJob");
NS_OBJECT_ENSURE_REGISTERED(CollectiveJob);

TypeId
CollectiveJob::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::CollectiveJob")
            .SetParent<Object>()
            .SetGroupName("AiFabric")
            .AddConstructor<CollectiveJob>()
            .AddAttribute("Iterations",
                          "Times the program runs (>= 1).",
                          UintegerValue(1),
                          MakeUintegerAccessor(&CollectiveJob::m_iterations),
                          MakeFabricUintegerChecker<uint32_t>("ns3::CollectiveJob::Iterations", 1))
            .AddTraceSource("IterationComplete",
                            "An iteration finished: index, start, end.",
                            MakeTraceSourceAccessor(&CollectiveJob::m_iterTrace),
                            "ns3::CollectiveJob::IterationTracedCallback");
    return tid;
}

CollectiveJob::CollectiveJob()
    : m_name("job"),
      m_iterations(1),
      m_iteration(0),
      m_pc(0),
      m_outstanding(0),
      m_waitingAsync(false),
      m_started(false),
      m_finished(false),
      m_failed(false)
{
}

CollectiveJob::~CollectiveJob() = default;

void
CollectiveJob::DoDispose()
{
    m_items.clear();
    Object::DoDispose();
}

void
CollectiveJob::SetName(const std::string& name)
{
    m_name = name;
}

std::string
CollectiveJob::GetName() const
{
    return m_name;
}

void
CollectiveJob::AddCompute(Time duration)
{
    NS_ABORT_MSG_IF(duration.IsStrictlyNegative(),
                    "job " << m_name << ": compute time " << duration.As(Time::US)
                           << " is invalid (>= 0)");
    Item it{};
    it.kind = Item::COMPUTE;
    it.duration = duration;
    m_items.push_back(it);
}

void
CollectiveJob::AddCollective(Ptr<CollectiveCommunicator> comm,
                             CollectiveOp op,
                             uint64_t bytes,
                             bool async,
                             uint32_t root)
{
    NS_ABORT_MSG_IF(!comm, "job " << m_name << ": collective on a null communicator");
    Item it{};
    it.kind = Item::COLLECTIVE;
    it.comm = comm;
    it.op = op;
    it.bytes = bytes;
    it.async = async;
    it.root = root;
    m_items.push_back(it);
}

void
CollectiveJob::AddWait()
{
    Item it{};
    it.kind = Item::WAIT;
    m_items.push_back(it);
}

void
CollectiveJob::AddTrainingIteration(Ptr<CollectiveCommunicator> dataParallel,
                                    Time forward,
                                    Time backward,
                                    uint64_t gradientBytes,
                                    uint32_t buckets,
                                    Time optimizer)
{
    NS_ABORT_MSG_IF(!dataParallel, "job " << m_name << ": null data-parallel communicator");
    NS_ABORT_MSG_IF(buckets == 0, "job " << m_name << ": 0 gradient buckets is invalid (>= 1)");
    NS_ABORT_MSG_IF(gradientBytes == 0, "job " << m_name << ": 0 gradient bytes is invalid");
    uint64_t elem = dataParallel->GetElementSize();
    uint64_t elements = (gradientBytes + elem - 1) / elem;
    NS_ABORT_MSG_IF(elements < buckets,
                    "job " << m_name << ": " << buckets << " buckets for " << elements
                           << " gradient elements; use at most one bucket per element");
    AddCompute(forward);
    for (uint32_t b = 0; b < buckets; ++b)
    {
        uint64_t e = elements / buckets + (b < elements % buckets ? 1 : 0);
        AddCompute(backward / int64_t(buckets));
        AddCollective(dataParallel, CollectiveOp::ALL_REDUCE, e * elem, true);
    }
    AddWait();
    AddCompute(optimizer);
}

void
CollectiveJob::Start(Time delay)
{
    NS_ABORT_MSG_IF(m_started, "job " << m_name << " was already started");
    NS_ABORT_MSG_IF(delay.IsStrictlyNegative(), "job " << m_name << ": negative start delay");
    NS_ABORT_MSG_IF(m_items.empty(), "job " << m_name << " has an empty program");
    m_started = true;
    Simulator::Schedule(delay, [this]() {
        m_iterationStart = Simulator::Now();
        Step();
    });
}

void
CollectiveJob::Step()
{
    m_waitingAsync = false;
    while (!m_failed)
    {
        if (m_pc == m_items.size())
        {
            if (m_outstanding > 0)
            {
                m_waitingAsync = true;
                return;
            }
            m_done.emplace_back(m_iterationStart, Simulator::Now());
            NS_LOG_INFO("job " << m_name << " iteration " << m_iteration << " took "
                               << (Simulator::Now() - m_iterationStart).As(Time::US));
            m_iterTrace(m_iteration, m_iterationStart, Simulator::Now());
            if (++m_iteration == m_iterations)
            {
                m_finished = true;
                return;
            }
            m_pc = 0;
            m_iterationStart = Simulator::Now();
        }
        const Item& it = m_items[m_pc];
        switch (it.kind)
        {
        case Item::COMPUTE:
            m_pc++;
            Simulator::Schedule(it.duration, &CollectiveJob::Step, this);
            return;
        case Item::COLLECTIVE: {
            m_pc++;
            if (it.async)
            {
                m_outstanding++;
            }
            bool async = it.async;
            it.comm->Enqueue(
                it.op,
                it.bytes,
                it.root,
                MakeCallback(&CollectiveJob::OnCollectiveDone, Ptr<CollectiveJob>(this), async));
            if (!async)
            {
                return;
            }
            break;
        }
        case Item::WAIT:
            if (m_outstanding > 0)
            {
                m_waitingAsync = true;
                return;
            }
            m_pc++;
            break;
        }
    }
}

void
CollectiveJob::OnCollectiveDone(bool async, const CollectiveRecord& record)
{
    if (m_failed)
    {
        return;
    }
    if (record.failed)
    {
        NS_LOG_WARN("job " << m_name << " stops: " << CollectiveOpName(record.op)
                           << " failed: " << record.reason);
        m_failed = true;
        return;
    }
    if (async)
    {
        m_outstanding--;
        if (m_waitingAsync && m_outstanding == 0)
        {
            Step();
        }
        return;
    }
    Step();
}

bool
CollectiveJob::IsFinished() const
{
    return m_finished;
}

bool
CollectiveJob::HasFailed() const
{
    return m_failed;
}

const std::vector<std::pair<Time, Time>>&
CollectiveJob::GetIterations() const
{
    return m_done;
}

Time
CollectiveJob::GetComputeTimePerIteration() const
{
    Time t;
    for (const auto& it : m_items)
    {
        if (it.kind == Item::COMPUTE)
        {
            t += it.duration;
        }
    }
    return t;
}

} // namespace ns3
