/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: FaultHelper's switch-profile faults: a mis-set WRED ECN profile (ecn-profile) and
 * a mis-set PFC buffer profile (pfc-threshold), applied and restored.
 */
#include "fault-helper.h"

#include "ns3/double.h"
#include "ns3/fabric-input-error.h"
#include "ns3/shared-buffer-mmu.h"
#include "ns3/uinteger.h"

#include <sstream>

namespace ns3
{

void
FaultHelper::SetEcn(uint32_t index)
{
    const Bound& b = m_bound[index];
    Ptr<WredEcnMarker> ecn = b.sw->GetEcnMarker();
    const uint32_t id = b.sw->GetPort(0)->GetNode()->GetId();
    const uint32_t first = b.ports.front();
    auto describe = [](const EcnProfile& e) {
        std::ostringstream os;
        os << "kmin " << e.kmin << " B kmax " << e.kmax << " B pmax " << e.pmax;
        return os.str();
    };
    const EcnProfile was{ecn->GetKmin(first), ecn->GetKmax(first), ecn->GetPmax(first)};
    for (uint32_t p : b.ports)
    {
        const EcnProfile e = b.spec.restore ? m_plannedEcn.at(std::make_pair(id, p))
                                            : EcnProfile{b.spec.kmin, b.spec.kmax, b.spec.pmax};
        ecn->SetPortThresholds(p, e.kmin, e.kmax, e.pmax);
    }
    std::ostringstream os;
    os << b.ports.size() << " port" << (b.ports.size() == 1 ? "" : "s") << " "
       << (b.spec.restore ? "back to their profile at install: " : "")
       << describe({ecn->GetKmin(first), ecn->GetKmax(first), ecn->GetPmax(first)})
       << (b.ports.size() > 1 ? " on port " + std::to_string(first) : std::string()) << " (was "
       << describe(was) << ")";
    Log(b.spec.restore ? "ecn-restore" : "ecn-profile", b.spec.GetTarget(), os.str());
}

void
FaultHelper::CheckPfcThreshold(const FaultSpec& spec, Ptr<FabricSwitch> sw)
{
    Ptr<SharedBufferMmu> mmu = sw->GetMmu();
    UintegerValue xon;
    mmu->GetAttribute("XonOffset", xon);
    const SharedBufferMmu::ThresholdMode mode = mmu->GetThresholdMode();
    FABRIC_INPUT_ERROR_IF(mmu->GetLosslessPriorities() == 0,
                          "fault '" << spec.Describe() << "': " << spec.nodeA
                                    << " has no lossless priority "
                                       "(ns3::SharedBufferMmu::LosslessPriorities is 0), so its "
                                       "PFC thresholds do nothing");
    if (spec.restore)
    {
        return;
    }
    FABRIC_INPUT_ERROR_IF(spec.xoff && mode != SharedBufferMmu::STATIC,
                          "fault '" << spec.Describe() << "': xoff= sets the static XOFF "
                                    << "threshold, but " << spec.nodeA
                                    << " runs ThresholdMode Dynamic; give alpha= (its factor)");
    FABRIC_INPUT_ERROR_IF(spec.alpha && mode != SharedBufferMmu::DYNAMIC,
                          "fault '" << spec.Describe() << "': alpha= sets the dynamic threshold "
                                    << "factor, but " << spec.nodeA
                                    << " runs ThresholdMode Static; give xoff= (its bytes)");
    FABRIC_INPUT_ERROR_IF(spec.xoff && *spec.xoff < xon.Get(),
                          "fault '" << spec.Describe() << "': xoff " << *spec.xoff
                                    << " B is below the switch's XonOffset " << xon.Get()
                                    << " B; valid range is >= " << xon.Get() << " B");
}

void
FaultHelper::SetPfcThreshold(uint32_t index)
{
    const Bound& b = m_bound[index];
    Ptr<SharedBufferMmu> mmu = b.sw->GetMmu();
    const PfcProfile& planned = m_plannedPfc.at(b.sw->GetPort(0)->GetNode()->GetId());
    const uint32_t first = b.ports.front();
    std::ostringstream os;
    auto headroom = [&](uint64_t bytes) {
        const uint64_t was = mmu->GetHeadroomSize(first);
        for (uint32_t p : b.ports)
        {
            mmu->SetHeadroomSize(p, b.spec.restore ? planned.headroom[p] : bytes);
        }
        os << "headroom " << mmu->GetHeadroomSize(first) << " B"
           << (b.ports.size() > 1 ? " on port " + std::to_string(first) : std::string()) << " (was "
           << was << " B)";
    };
    auto setXoff = [&](uint64_t bytes) {
        UintegerValue was;
        mmu->GetAttribute("XoffStaticBytes", was);
        mmu->SetAttribute("XoffStaticBytes", UintegerValue(bytes));
        os << (os.tellp() > 0 ? "; " : "") << "xoff " << bytes << " B (was " << was.Get() << " B)";
    };
    auto setAlpha = [&](double a) {
        DoubleValue was;
        mmu->GetAttribute("Alpha", was);
        mmu->SetAttribute("Alpha", DoubleValue(a));
        os << (os.tellp() > 0 ? "; " : "") << "alpha " << a << " (was " << was.Get() << ")";
    };
    if (b.spec.restore)
    {
        os << "back to the profile at install: ";
        headroom(0);
        setXoff(planned.xoff);
        setAlpha(planned.alpha);
    }
    else
    {
        if (b.spec.headroom)
        {
            headroom(*b.spec.headroom);
        }
        if (b.spec.xoff)
        {
            setXoff(*b.spec.xoff);
        }
        if (b.spec.alpha)
        {
            setAlpha(*b.spec.alpha);
        }
    }
    os << "; " << b.ports.size() << " port" << (b.ports.size() == 1 ? "" : "s");
    Log(b.spec.restore ? "pfc-restore" : "pfc-threshold", b.spec.GetTarget(), os.str());
}

} // namespace ns3
