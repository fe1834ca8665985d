/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "flow-source.h"

#include "ns3/abort.h"
#include "ns3/fabric-input-error.h"

namespace ns3
{

bool
operator==(const FlowSpec& a, const FlowSpec& b)
{
    return a.id == b.id && a.src == b.src && a.dst == b.dst && a.sizeBytes == b.sizeBytes &&
           a.start == b.start;
}

bool
operator!=(const FlowSpec& a, const FlowSpec& b)
{
    return !(a == b);
}

NS_OBJECT_ENSURE_REGISTERED(FlowSource);

TypeId
FlowSource::GetTypeId()
{
    static TypeId tid = TypeId("ns3::FlowSource").SetParent<Object>().SetGroupName("AiFabric");
    return tid;
}

FlowSource::~FlowSource() = default;

std::vector<FlowSpec>
FlowSource::GenerateAll()
{
    std::vector<FlowSpec> flows;
    for (std::optional<FlowSpec> f = Next(); f; f = Next())
    {
        flows.push_back(*f);
    }
    return flows;
}

NS_OBJECT_ENSURE_REGISTERED(FlowSourceMerger);

TypeId
FlowSourceMerger::GetTypeId()
{
    static TypeId tid = TypeId("ns3::FlowSourceMerger")
                            .SetParent<FlowSource>()
                            .SetGroupName("AiFabric")
                            .AddConstructor<FlowSourceMerger>();
    return tid;
}

FlowSourceMerger::FlowSourceMerger() = default;

FlowSourceMerger::~FlowSourceMerger() = default;

void
FlowSourceMerger::Add(Ptr<FlowSource> source)
{
    FABRIC_INPUT_ERROR_IF(!source, "FlowSourceMerger::Add: null source");
    FABRIC_INPUT_ERROR_IF(PeekPointer(source) == this,
                          "FlowSourceMerger::Add: a merger cannot merge "
                          "itself");
    FABRIC_INPUT_ERROR_IF(m_started,
                          "FlowSourceMerger::Add: sources must be added before the first Next()");
    m_sources.push_back(source);
}

uint32_t
FlowSourceMerger::GetNSources() const
{
    return static_cast<uint32_t>(m_sources.size());
}

std::optional<FlowSpec>
FlowSourceMerger::Next()
{
    if (!m_started)
    {
        m_started = true;
        m_pending.reserve(m_sources.size());
        for (auto& s : m_sources)
        {
            m_pending.push_back(s->Next());
        }
    }
    std::size_t best = m_pending.size();
    for (std::size_t i = 0; i < m_pending.size(); ++i)
    {
        if (m_pending[i] &&
            (best == m_pending.size() || m_pending[i]->start < m_pending[best]->start))
        {
            best = i;
        }
    }
    if (best == m_pending.size())
    {
        return std::nullopt;
    }
    std::optional<FlowSpec> f = m_pending[best];
    m_pending[best] = m_sources[best]->Next();
    FABRIC_INPUT_ERROR_IF(m_pending[best] && m_pending[best]->start < f->start,
                          "FlowSourceMerger: source "
                              << best << " returned flow " << m_pending[best]->id << " starting at "
                              << m_pending[best]->start << " after flow " << f->id
                              << " starting at " << f->start
                              << "; a FlowSource must give non-decreasing "
                                 "start times");
    return f;
}

int64_t
FlowSourceMerger::AssignStreams(int64_t stream)
{
    int64_t used = 0;
    for (auto& s : m_sources)
    {
        used += s->AssignStreams(stream + used);
    }
    return used;
}

void
FlowSourceMerger::DoDispose()
{
    m_sources.clear();
    m_pending.clear();
    FlowSource::DoDispose();
}

} // namespace ns3
