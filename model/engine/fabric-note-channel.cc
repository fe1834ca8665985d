/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "fabric-note-channel.h"

#include "fabric-wire-header.h"

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
    : m_note(bytes)
{
}

uint8_t*
FabricNoteWriter::Next(uint32_t bytes)
{
    NS_ABORT_MSG_IF(m_pos + bytes > m_note.size(),
                    "FabricNoteWriter: a field of " << bytes << " B at " << m_pos << " of a "
                                                    << m_note.size() << " B note");
    uint8_t* p = m_note.data() + m_pos;
    m_pos += bytes;
    return p;
}

void
FabricNoteWriter::WriteU8(uint8_t v)
{
    *Next(1) = v;
}

void
FabricNoteWriter::WriteU32(uint32_t v)
{
    wire::PutU32(Next(4), v);
}

void
FabricNoteWriter::WriteU64(uint64_t v)
{
    wire::PutU64(Next(8), v);
}

std::vector<uint8_t>
FabricNoteWriter::Finish() const
{
    NS_ABORT_MSG_IF(m_pos != m_note.size(),
                    "FabricNoteWriter: a note of " << m_note.size() << " B has only " << m_pos
                                                   << " B written");
    return m_note;
}

FabricNoteReader::FabricNoteReader(const std::vector<uint8_t>& note,
                                   uint32_t bytes,
                                   const std::string& what)
    : m_note(note)
{
    NS_ABORT_MSG_IF(note.size() != bytes,
                    what << " of " << note.size() << " B (expected " << bytes << ")");
}

const uint8_t*
FabricNoteReader::Next(uint32_t bytes)
{
    NS_ABORT_MSG_IF(m_pos + bytes > m_note.size(),
                    "FabricNoteReader: a field of " << bytes << " B at " << m_pos << " of a "
                                                    << m_note.size() << " B note");
    const uint8_t* p = m_note.data() + m_pos;
    m_pos += bytes;
    return p;
}

uint8_t
FabricNoteReader::ReadU8()
{
    return *Next(1);
}

uint32_t
FabricNoteReader::ReadU32()
{
    return wire::GetU32(Next(4));
}

uint64_t
FabricNoteReader::ReadU64()
{
    return wire::GetU64(Next(8));
}

} // namespace ns3
