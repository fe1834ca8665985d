/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "fabric-reason-counters.h"

#include "ns3/abort.h"

#include <sstream>

namespace ns3
{

FabricReasonCounters::FabricReasonCounters(std::initializer_list<const char*> names)
{
    for (const char* name : names)
    {
        AddReason(name ? name : "");
    }
}

uint32_t
FabricReasonCounters::AddReason(const std::string& name)
{
    NS_ABORT_MSG_IF(name.empty(),
                    "FabricReasonCounters: reason " << m_counts.size() << " has an empty name");
    NS_ABORT_MSG_IF(Find(name) >= 0,
                    "FabricReasonCounters: reason \"" << name << "\" is declared twice (id "
                                                      << Find(name) << " and " << m_counts.size()
                                                      << ")");
    if (!m_names)
    {
        m_names = std::make_shared<std::vector<std::string>>();
    }
    else if (m_names.use_count() > 1)
    {
        m_names = std::make_shared<std::vector<std::string>>(*m_names); // others keep theirs
    }
    m_names->push_back(name);
    m_counts.push_back(0);
    return static_cast<uint32_t>(m_counts.size() - 1);
}

void
FabricReasonCounters::CheckId(uint32_t id) const
{
    NS_ABORT_MSG_IF(id >= m_counts.size(),
                    "FabricReasonCounters: reason id " << id << " out of range (0.."
                                                       << int64_t(m_counts.size()) - 1 << ")");
}

uint64_t
FabricReasonCounters::Get(uint32_t id) const
{
    CheckId(id);
    return m_counts[id];
}

uint64_t
FabricReasonCounters::Get(const std::string& name) const
{
    int32_t id = Find(name);
    if (id < 0)
    {
        std::ostringstream known;
        for (uint32_t i = 0; i < GetN(); ++i)
        {
            known << (i ? ", " : "") << '"' << (*m_names)[i] << '"';
        }
        NS_ABORT_MSG("FabricReasonCounters: no reason named \"" << name
                                                                << "\"; declared: " << known.str());
    }
    return m_counts[id];
}

int32_t
FabricReasonCounters::Find(const std::string& name) const
{
    for (uint32_t i = 0; i < GetN(); ++i)
    {
        if ((*m_names)[i] == name)
        {
            return static_cast<int32_t>(i);
        }
    }
    return -1;
}

const std::string&
FabricReasonCounters::GetName(uint32_t id) const
{
    CheckId(id);
    return (*m_names)[id];
}

uint64_t
FabricReasonCounters::GetTotal() const
{
    uint64_t sum = 0;
    for (uint64_t c : m_counts)
    {
        sum += c;
    }
    return sum;
}

std::map<std::string, uint64_t>
FabricReasonCounters::GetMap() const
{
    std::map<std::string, uint64_t> map;
    for (uint32_t i = 0; i < GetN(); ++i)
    {
        map[(*m_names)[i]] = m_counts[i];
    }
    return map;
}

void
FabricReasonCounters::Reset()
{
    m_counts.assign(m_counts.size(), 0);
}

void
FabricReasonCounters::Print(std::ostream& os) const
{
    bool any = false;
    for (uint32_t i = 0; i < GetN(); ++i)
    {
        if (m_counts[i])
        {
            os << (any ? ", " : "") << (*m_names)[i] << ": " << m_counts[i];
            any = true;
        }
    }
    if (!any)
    {
        os << "none";
    }
}

std::ostream&
operator<<(std::ostream& os, const FabricReasonCounters& counters)
{
    counters.Print(os);
    return os;
}

} // namespace ns3
