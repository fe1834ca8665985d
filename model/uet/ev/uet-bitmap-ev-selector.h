/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef UET_BITMAP_EV_SELECTOR_H
#define UET_BITMAP_EV_SELECTOR_H

#include "uet-ev-selector.h"

namespace ns3
{

/**
 * \ingroup ai-fabric-uet
 * \brief Bitmap spraying (htsim UecMpBitmap; UET.md "Entropy (EV) and spraying"): a penalty
 *        counter per EV (one byte each, Evs bytes per PDC), raised by bad feedback and paid
 *        off by skipping the EV.
 *
 * Feedback: ACK_ECN adds EcnPenalty (htsim 1), NACK NackPenalty (4), TIMEOUT TimeoutPenalty
 * (15, htsim: set to the maximum), each saturating at MaxPenalty (15, a 4-bit counter);
 * ACK_CLEAN changes nothing.
 *
 * Choosing walks the EVs in the oblivious order (UetEvWalk, as UetObliviousEvSelector): an EV
 * with penalty 0 is taken; an EV with penalty p > 0 is skipped and its penalty becomes p - 1.
 * So an EV with penalty p is skipped on exactly its next p visits by the walk and used on the
 * one after (if no new feedback arrives meanwhile); a pick may visit an EV twice (the end of
 * one round and the start of the next), paying 1 each time. A pick skips at most 2 Evs - 1
 * EVs (any 2 Evs - 1 consecutive positions of the walk hold a whole round, so every EV has
 * been visited); if all of them were penalised, the next EV of the walk is used as it is
 * (counted as forced).
 *
 * Difference from htsim: htsim decrements only the first penalised EV a pick meets, skips
 * the others it meets unchanged, and gives up after Evs + 1 visits; here every EV skipped is
 * decremented. The two agree whenever a pick meets at most one penalised EV (the usual case
 * with few bad paths); this rule makes an EV's penalty mean "visits to skip" and bounds the
 * work of the picks by the penalties the feedback added (amortised O(1) per feedback), where
 * htsim's can walk all Evs on every pick when many EVs are penalised.
 */
class UetBitmapEvSelector : public UetEvSelector
{
  public:
    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    UetBitmapEvSelector();
    std::string GetName() const override;
    Ptr<UetEvSelector> Fork() const override;
    void Init(Ptr<UniformRandomVariable> rng) override;
    uint16_t NextEv() override;
    void OnFeedback(uint16_t ev, UetEvFeedback f) override;

    /**
     * \param ev an EV index
     * \return its penalty (0 if out of range)
     */
    uint8_t GetPenalty(uint16_t ev) const;

  protected:
    void ClearState() override;
    /// \return the bitmap choice (counts skipped and forced, not the pick)
    uint16_t BitmapPick();
    /**
     * \brief Apply feedback to the penalties (already accepted).
     * \param ev the EV index, < Evs
     * \param f the feedback
     */
    void BitmapFeedback(uint16_t ev, UetEvFeedback f);

  private:
    uint8_t m_ecnPenalty;             //!< added on ACK_ECN
    uint8_t m_nackPenalty;            //!< added on NACK
    uint8_t m_timeoutPenalty;         //!< added on TIMEOUT
    uint8_t m_maxPenalty;             //!< saturation, >= 1
    UetEvWalk m_walk;                 //!< the order
    std::vector<uint8_t> m_penalties; //!< by EV index (Evs bytes)
};

} // namespace ns3

#endif /* UET_BITMAP_EV_SELECTOR_H */
