/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef UET_MIXED_EV_SELECTOR_H
#define UET_MIXED_EV_SELECTOR_H

#include "uet-bitmap-ev-selector.h"

namespace ns3
{

/**
 * \ingroup ai-fabric-uet
 * \brief Mixed (htsim UecMpMixed): REPS's recycling when it has a recycled EV, else bitmap.
 *
 * Every feedback goes to both parts: the bitmap penalties (UetBitmapEvSelector's attributes
 * apply) and, for ACK_CLEAN, a UetEvRecycleBuffer of BufferSize entries. NextEv returns the
 * oldest fresh recycled EV if there is one (without looking at its penalty, as htsim), else
 * the bitmap choice. No freeze. Difference from htsim: htsim's recycle list here (its
 * "REPS legacy" deque) is unbounded; this one keeps the last BufferSize clean EVs. State:
 * Evs bytes of penalties + 8 B walk + 21 B buffer.
 */
class UetMixedEvSelector : public UetBitmapEvSelector
{
  public:
    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    UetMixedEvSelector();
    std::string GetName() const override;
    Ptr<UetEvSelector> Fork() const override;
    void Init(Ptr<UniformRandomVariable> rng) override;
    uint16_t NextEv() override;
    void OnFeedback(uint16_t ev, UetEvFeedback f) override;

    /// \return the recycle buffer
    const UetEvRecycleBuffer& GetBuffer() const;

  protected:
    void ClearState() override;

  private:
    uint32_t m_bufferSize;        //!< recycle buffer entries, 1..8
    UetEvRecycleBuffer m_recycle; //!< EVs whose ACK came back clean
};

} // namespace ns3

#endif /* UET_MIXED_EV_SELECTOR_H */
