/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: short notes from one MPI process to another.
 */
#ifndef FABRIC_NOTE_CHANNEL_H
#define FABRIC_NOTE_CHANNEL_H

#include "ns3/callback.h"
#include "ns3/object.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup ai-fabric-engine
 * \brief Short notes from one MPI process to another, for a model above the link layer that
 *        must tell another process something before the frames it sends next can get there
 *        (a collective transport announcing a message to the process of its receiver).
 *
 * A note sent at t to process P reaches the handler registered under the same id in P no later
 * than any frame sent at or after t reaches P, and notes to one process are handled in the
 * order they were sent. Every process registers the same handlers in the same order (ids are
 * registration indices). PfcRemoteExchange implements it (the notes travel in its batches, see
 * there); a topology that spans processes aggregates one
 * (`topology->GetObject<FabricNoteChannel>()`).
 */
class FabricNoteChannel : public Object
{
  public:
    /// A note handler: the note's bytes, as SendNote() was given them.
    typedef Callback<void, const std::vector<uint8_t>&> NoteHandler;

    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /**
     * \brief Register a handler of notes from other processes.
     * \param handler the handler (not null; implementations abort otherwise)
     * \return its id (the registration index)
     */
    virtual uint32_t AddNoteHandler(NoteHandler handler) = 0;
    /**
     * \brief Send a note to handler \p handler of process \p system (see the class comment for
     *        when it is handled).
     * \param system the destination process (ns-3 system id)
     * \param handler the handler id (AddNoteHandler)
     * \param note its bytes (a few hundred at most; implementations abort naming the size
     *        beyond their limit)
     */
    virtual void SendNote(uint32_t system, uint32_t handler, const std::vector<uint8_t>& note) = 0;
    /**
     * \brief Send the same note to handler \p handler of every process but \p self
     *        (SendNote() to each, in system order).
     * \param processes number of processes of the run (FabricMpi::GetSize())
     * \param self this process's system id
     * \param handler the handler id (AddNoteHandler)
     * \param note its bytes (as SendNote())
     */
    void SendNoteToOthers(uint32_t processes,
                          uint32_t self,
                          uint32_t handler,
                          const std::vector<uint8_t>& note);
};

/**
 * \ingroup ai-fabric-engine
 * \brief Writes a note of a fixed size for FabricNoteChannel: fields in network byte order
 *        (the wire:: helpers of fabric-wire-header.h), straight into the note's bytes.
 *
 * Usage: construct with the note's size, write every field in order, then Finish() and send
 * the bytes it returns. FabricNoteReader reads them back in the same order.
 */
class FabricNoteWriter
{
  public:
    /**
     * \brief Start a note.
     * \param bytes the note's size in bytes (the sum of the fields written)
     */
    explicit FabricNoteWriter(uint32_t bytes);
    FabricNoteWriter(const FabricNoteWriter&) = delete;
    FabricNoteWriter& operator=(const FabricNoteWriter&) = delete;

    /// \brief Append one byte. \param v the value
    void WriteU8(uint8_t v);
    /// \brief Append 4 bytes, big-endian. \param v the value
    void WriteU32(uint32_t v);
    /// \brief Append 8 bytes, big-endian. \param v the value
    void WriteU64(uint64_t v);
    /**
     * \brief The note's bytes.
     * \return exactly the size given at construction (aborts naming both sizes when the fields
     *         written do not fill it: a programming error)
     */
    std::vector<uint8_t> Finish() const;

  private:
    /// \brief The next \p bytes of the note (aborts naming the sizes when they do not fit).
    /// \param bytes the field's width \return where the field goes
    uint8_t* Next(uint32_t bytes);

    std::vector<uint8_t> m_note; //!< the note being written
    uint32_t m_pos{0};           //!< where the next field goes
};

/**
 * \ingroup ai-fabric-engine
 * \brief Reads a note written by FabricNoteWriter, after checking its size.
 */
class FabricNoteReader
{
  public:
    /**
     * \brief Check a received note's size and start reading it.
     * \param note the note's bytes, as the handler received them (read in place: it must
     *        outlive the reader)
     * \param bytes the size this kind of note has
     * \param what names the note in the error, e.g. "FabricBarrier: an arrival note"; a note of
     *        another size aborts with "<what> of <size> B (expected <bytes>)"
     */
    FabricNoteReader(const std::vector<uint8_t>& note, uint32_t bytes, const std::string& what);
    FabricNoteReader(const FabricNoteReader&) = delete;
    FabricNoteReader& operator=(const FabricNoteReader&) = delete;

    /// \brief Read one byte. \return the value
    uint8_t ReadU8();
    /// \brief Read 4 bytes, big-endian. \return the value
    uint32_t ReadU32();
    /// \brief Read 8 bytes, big-endian. \return the value
    uint64_t ReadU64();

  private:
    /// \brief The next \p bytes of the note (aborts naming the sizes when they are past its
    /// end). \param bytes the field's width \return where the field starts
    const uint8_t* Next(uint32_t bytes);

    const std::vector<uint8_t>& m_note; //!< the note (the handler's argument outlives the reader)
    uint32_t m_pos{0};                  //!< where the next field starts
};

} // namespace ns3

#endif /* FABRIC_NOTE_CHANNEL_H */
