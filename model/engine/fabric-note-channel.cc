/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "fabric-note-channel.h"

#include "ns3/abort.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(FabricNoteChannel);

TypeId
FabricNoteChannel::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::FabricNoteChannel").SetParent<Object>().SetGroupName("AiFabric");
    return tid;
}

void
FabricNoteChannel::SendNoteToOthers(uint32_t processes,
                                    uint32_t self,
                                    uint32_t handler,
                                    const std::vector<uint8_t>& note)
{
    for (uint32_t p = 0; p < processes; ++p)
    {
        if (p != self)
        {
            SendNote(p, handler, note);
        }
    }
}

FabricNoteWriter::FabricNoteWriter(uint32_t bytes)
    : m_buffer(0)
{
    m_buffer.AddAtStart(bytes);
    m_pos = m_buffer.Begin();
}

void
FabricNoteWriter::WriteU8(uint8_t v)
{
    m_pos.WriteU8(v);
}

void
FabricNoteWriter::WriteU32(uint32_t v)
{
    m_pos.WriteHtonU32(v);
}

void
FabricNoteWriter::WriteU64(uint64_t v)
{
    m_pos.WriteHtonU64(v);
}

std::vector<uint8_t>
FabricNoteWriter::Finish() const
{
    NS_ABORT_MSG_IF(!m_pos.IsEnd(),
                    "FabricNoteWriter: a note of " << m_buffer.GetSize() << " B has only "
                                                   << m_pos.GetDistanceFrom(m_buffer.Begin())
                                                   << " B written");
    std::vector<uint8_t> note(m_buffer.GetSize());
    m_buffer.CopyData(note.data(), note.size());
    return note;
}

FabricNoteReader::FabricNoteReader(const std::vector<uint8_t>& note,
                                   uint32_t bytes,
                                   const std::string& what)
    : m_buffer(0)
{
    NS_ABORT_MSG_IF(note.size() != bytes,
                    what << " of " << note.size() << " B (expected " << bytes << ")");
    m_buffer.AddAtStart(bytes);
    m_buffer.Begin().Write(note.data(), bytes);
    m_pos = m_buffer.Begin();
}

uint8_t
FabricNoteReader::ReadU8()
{
    return m_pos.ReadU8();
}

uint32_t
FabricNoteReader::ReadU32()
{
    return m_pos.ReadNtohU32();
}

uint64_t
FabricNoteReader::ReadU64()
{
    return m_pos.ReadNtohU64();
}

} // namespace ns3
