/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "pfc-priority-map.h"

#include "ns3/abort.h"

#include <sstream>
#include <stdexcept>

namespace ns3
{

PfcPriorityMap::PfcPriorityMap()
{
    for (uint8_t d = 0; d < 64; ++d)
    {
        Set(d, d >> 3);
    }
}

void
PfcPriorityMap::Set(uint8_t dscp, uint8_t priority)
{
    uint64_t& word = m_packed[dscp >> 4];
    uint32_t shift = (dscp & 15u) * 4;
    word = (word & ~(uint64_t(0xf) << shift)) | (uint64_t(priority) << shift);
}

void
PfcPriorityMap::Parse(const std::string& map)
{
    std::istringstream iss(map);
    std::string item;
    while (std::getline(iss, item, ','))
    {
        if (item.empty())
        {
            continue;
        }
        auto colon = item.find(':');
        int dscp = -1;
        int prio = -1;
        try
        {
            if (colon == std::string::npos)
            {
                throw std::invalid_argument("no colon");
            }
            std::size_t u1 = 0;
            std::size_t u2 = 0;
            dscp = std::stoi(item.substr(0, colon), &u1);
            prio = std::stoi(item.substr(colon + 1), &u2);
            if (u1 != colon || u2 != item.size() - colon - 1)
            {
                dscp = -1;
            }
        }
        catch (const std::exception&)
        {
            dscp = -1;
        }
        NS_ABORT_MSG_IF(dscp < 0 || dscp > 63 || prio < 0 || prio > 7,
                        "DscpPriorityMap entry \"" << item
                                                   << "\" is invalid; expected dscp:priority "
                                                      "with dscp 0..63 and priority 0..7");
        Set(static_cast<uint8_t>(dscp), static_cast<uint8_t>(prio));
    }
}

std::string
PfcPriorityMap::ToString() const
{
    std::ostringstream oss;
    bool first = true;
    for (uint8_t d = 0; d < 64; ++d)
    {
        if (Get(d) != (d >> 3))
        {
            oss << (first ? "" : ",") << unsigned(d) << ":" << unsigned(Get(d));
            first = false;
        }
    }
    return oss.str();
}

} // namespace ns3
