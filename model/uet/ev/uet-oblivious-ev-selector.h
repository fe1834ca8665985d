/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef UET_OBLIVIOUS_EV_SELECTOR_H
#define UET_OBLIVIOUS_EV_SELECTOR_H

#include "uet-ev-selector.h"

namespace ns3
{

/**
 * \ingroup ai-fabric-uet
 * \brief Oblivious spraying (htsim UecMpOblivious): the EVs in the UetEvWalk order, a new random
 *        XOR key (power-of-two Evs) or offset (other Evs) per round, so every round of Evs
 *        consecutive picks uses every EV exactly once. Ignores feedback. State: 8 B.
 */
class UetObliviousEvSelector : public UetEvSelector
{
  public:
    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    std::string GetName() const override;
    Ptr<UetEvSelector> Fork() const override;
    void Init(Ptr<UniformRandomVariable> rng) override;
    uint16_t NextEv() override;
    void OnFeedback(uint16_t ev, UetEvFeedback f) override;

  private:
    UetEvWalk m_walk; //!< the order
};

} // namespace ns3

#endif /* UET_OBLIVIOUS_EV_SELECTOR_H */
