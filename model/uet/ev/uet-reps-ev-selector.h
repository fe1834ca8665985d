/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef UET_REPS_EV_SELECTOR_H
#define UET_REPS_EV_SELECTOR_H

#include "uet-ev-selector.h"

namespace ns3
{

/**
 * \ingroup ai-fabric-uet
 * \brief REPS, Recycled Entropy Packet Spraying (Bonato et al., arXiv 2407.21625; htsim
 *        UecMpReps with CircularBufferREPS): reuse the EVs whose ACKs came back unmarked.
 *
 * - ACK_CLEAN pushes the EV into a UetEvRecycleBuffer of BufferSize entries (default 8, the
 *   paper's and htsim's; the oldest is overwritten when full); ACK_ECN and NACK do not.
 * - NextEv, normally: the oldest fresh EV of the buffer (recycled), else a uniformly random EV
 *   (explored; htsim draws rand() % Evs).
 * - Freeze (failure mitigation; htsim's rule): a TIMEOUT (and, with FreezeOnNack, a NACK)
 *   while not frozen and not in the post-freeze exploration puts the selector in the freeze
 *   for FreezeDuration (htsim exit_freeze_after: 10 ms). While frozen NextEv explores nothing
 *   new: it cycles round robin through the stored known-good EVs (UetEvRecycleBuffer::
 *   NextStored, fresh or already used); clean ACKs still push. Only when nothing is stored
 *   (no ACK ever came back clean) does it draw a random EV. The first NextEv or OnFeedback at
 *   or after entry + FreezeDuration ends it (htsim checks on feedback only): the buffer is
 *   emptied and the next ExploreAfterFreeze picks (htsim 16) are random EVs, during which no
 *   new freeze starts. With Freezing false a failure changes nothing. htsim freezes on
 *   TIMEOUT only (with trimming, a NACK reports congestion, a timeout a lost packet: a failed
 *   path), hence FreezeOnNack's default false.
 *
 * State (State, 32 B): the buffer (8 EVs x 16 bits, head, count, fresh bits, cursor: 21 B), the
 * post-freeze exploration count and the frozen flag (2 B) - the < 25 B the paper counts - and
 * the freeze's end time (8 B, a timer in a NIC).
 */
class UetRepsEvSelector : public UetEvSelector
{
  public:
    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    UetRepsEvSelector();
    std::string GetName() const override;
    Ptr<UetEvSelector> Fork() const override;
    void Init(Ptr<UniformRandomVariable> rng) override;
    uint16_t NextEv() override;
    /// \return a stored known-good EV (round robin, not consumed) if any, else NextEv()
    uint16_t NextRetransmitEv() override;
    void OnFeedback(uint16_t ev, UetEvFeedback f) override;

    /// The per-connection state of REPS.
    struct State
    {
        UetEvRecycleBuffer buffer; //!< EVs whose ACK came back clean
        uint8_t exploreLeft{0};    //!< random picks left after a freeze, 0..255
        bool frozen{false};        //!< in the freeze
        Time freezeEnd;            //!< when the freeze ends
    };

    /// \return true while frozen (as of the last call)
    bool IsFrozen() const;
    /// \return the recycle buffer
    const UetEvRecycleBuffer& GetBuffer() const;

  protected:
    void ClearState() override;

  private:
    /// End the freeze if its time has come.
    void CheckFreezeEnd();
    /// Enter the freeze if the rule allows it.
    void MaybeFreeze();

    uint32_t m_bufferSize;         //!< recycle buffer entries, 1..8
    bool m_freezing;               //!< failures freeze
    bool m_freezeOnNack;           //!< a NACK is a failure too
    Time m_freezeDuration;         //!< how long a freeze lasts
    uint32_t m_exploreAfterFreeze; //!< random picks after a freeze, 0..255
    State m_state;                 //!< the connection's state
};

} // namespace ns3

#endif /* UET_REPS_EV_SELECTOR_H */
