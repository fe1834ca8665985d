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

} // namespace ns3

#endif /* FABRIC_NOTE_CHANNEL_H */
