/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "pfc-dwrr-scheduler.h"

#include "ns3/abort.h"
#include "ns3/fabric-attribute-checker.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <sstream>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(PfcDwrrScheduler);

TypeId
PfcDwrrScheduler::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::PfcDwrrScheduler")
            .SetParent<PfcTxScheduler>()
            .SetGroupName("AiFabric")
            .AddConstructor<PfcDwrrScheduler>()
            .AddAttribute("Weights",
                          "Eight comma-separated integer weights (>= 1), priority 0 first.",
                          StringValue("1,1,1,1,1,1,1,1"),
                          MakeStringAccessor(&PfcDwrrScheduler::SetWeightsString,
                                             &PfcDwrrScheduler::GetWeightsString),
                          MakeStringChecker())
            .AddAttribute(
                "QuantumBytes",
                "Credit in bytes a priority earns per round per unit of weight "
                "(>= 1; at least the largest frame keeps rounds short).",
                UintegerValue(9216),
                MakeUintegerAccessor(&PfcDwrrScheduler::m_quantum),
                MakeFabricUintegerChecker<uint32_t>("ns3::PfcDwrrScheduler::QuantumBytes", 1))
            .AddAttribute("StrictPriorityMask",
                          "Bit i set = priority i is served by strict priority before the "
                          "round robin (e.g. 0x40 for CNPs on priority 6).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&PfcDwrrScheduler::m_strictMask),
                          MakeUintegerChecker<uint8_t>());
    return tid;
}

PfcDwrrScheduler::PfcDwrrScheduler()
    : m_quantum(9216),
      m_strictMask(0),
      m_current(0),
      m_turnCredited(false)
{
    m_weight.fill(1);
    m_deficit.fill(0);
}

int
PfcDwrrScheduler::Select(uint8_t eligible, const PfcTxQueues& queues)
{
    uint8_t strict = eligible & m_strictMask;
    if (strict)
    {
        return HighestPriority(strict);
    }
    uint8_t rr = eligible & ~m_strictMask;
    if (!rr)
    {
        return NONE;
    }
    // Terminates: every pass over the eight priorities credits each eligible one, so the
    // deficit of some eligible priority eventually covers its head frame.
    while (true)
    {
        uint8_t p = m_current;
        if ((rr >> p) & 1u)
        {
            if (!m_turnCredited)
            {
                m_deficit[p] += static_cast<uint64_t>(m_weight[p]) * m_quantum;
                m_turnCredited = true;
            }
            uint32_t head = queues[p].GetHeadBytes();
            if (head <= m_deficit[p])
            {
                m_deficit[p] -= head;
                return p;
            }
        }
        else if (queues[p].IsEmpty())
        {
            m_deficit[p] = 0; // DRR: an idle queue keeps no credit
        }
        m_current = (m_current + 1) % 8;
        m_turnCredited = false;
    }
}

void
PfcDwrrScheduler::SetWeight(uint8_t priority, uint32_t weight)
{
    NS_ABORT_MSG_IF(priority > 7, "DWRR priority " << unsigned(priority) << " invalid; valid 0..7");
    NS_ABORT_MSG_IF(weight == 0,
                    "DWRR weight 0 for priority " << unsigned(priority)
                                                  << " is invalid; weights must be >= 1");
    m_weight[priority] = weight;
}

uint32_t
PfcDwrrScheduler::GetWeight(uint8_t priority) const
{
    NS_ABORT_MSG_IF(priority > 7, "DWRR priority " << unsigned(priority) << " invalid; valid 0..7");
    return m_weight[priority];
}

uint64_t
PfcDwrrScheduler::GetDeficit(uint8_t priority) const
{
    NS_ABORT_MSG_IF(priority > 7, "DWRR priority " << unsigned(priority) << " invalid; valid 0..7");
    return m_deficit[priority];
}

void
PfcDwrrScheduler::SetWeightsString(std::string weights)
{
    std::istringstream iss(weights);
    std::string item;
    uint8_t p = 0;
    while (std::getline(iss, item, ','))
    {
        NS_ABORT_MSG_IF(p >= 8, "DWRR Weights \"" << weights << "\" has more than 8 entries");
        std::size_t used = 0;
        unsigned long w = 0;
        try
        {
            w = std::stoul(item, &used);
        }
        catch (const std::exception&)
        {
            used = 0;
        }
        NS_ABORT_MSG_IF(used == 0 || used != item.size() || w == 0 || w > 0xffffffffUL,
                        "DWRR weight \"" << item << "\" for priority " << unsigned(p)
                                         << " is invalid; need an integer >= 1");
        m_weight[p++] = static_cast<uint32_t>(w);
    }
    NS_ABORT_MSG_IF(p != 8,
                    "DWRR Weights \"" << weights << "\" has " << unsigned(p)
                                      << " entries; need exactly 8 (priority 0..7)");
}

std::string
PfcDwrrScheduler::GetWeightsString() const
{
    std::ostringstream oss;
    for (uint8_t p = 0; p < 8; ++p)
    {
        oss << (p ? "," : "") << m_weight[p];
    }
    return oss.str();
}

} // namespace ns3
