/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef UET_SINGLE_EV_SELECTOR_H
#define UET_SINGLE_EV_SELECTOR_H

#include "uet-ev-selector.h"

namespace ns3
{

/**
 * \ingroup ai-fabric-uet
 * \brief Always EV index 0: what ROD (one path, the load balancer leaves its EV alone, UET.md
 *        "Layers") and a PDC that does not spray use. Ignores feedback; draws nothing.
 */
class UetSingleEvSelector : public UetEvSelector
{
  public:
    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    std::string GetName() const override;
    Ptr<UetEvSelector> Fork() const override;
    uint16_t NextEv() override;
    void OnFeedback(uint16_t ev, UetEvFeedback f) override;
};

} // namespace ns3

#endif /* UET_SINGLE_EV_SELECTOR_H */
