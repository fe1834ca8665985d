/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * FaultHelper, part 1 of 2: the fault spec (FaultKind, FaultSpec) and its parser.
 */
#include "fault-helper.h"

#include "ns3/fabric-attribute-checker.h"
#include "ns3/fabric-command-line.h"
#include "ns3/fabric-input-error.h"

#include <cmath>
#include <cstdlib>
#include <iomanip>
#include <set>
#include <sstream>

namespace ns3
{

namespace
{

/// Largest flap count.
constexpr uint32_t MAX_FLAP_COUNT = 1000000;

/// The kinds, in FaultKind order.
const char* const KIND_NAMES[] = {"link-down",
                                  "link-up",
                                  "link-flap",
                                  "link-degrade",
                                  "link-restore",
                                  "switch-reboot",
                                  "nic-stall",
                                  "ecn-profile",
                                  "drop-class",
                                  "pfc-threshold"};
static_assert(sizeof(KIND_NAMES) / sizeof(KIND_NAMES[0]) == size_t(FaultKind::COUNT),
              "one name per fault kind");

/// \return the valid kinds, "link-down, link-up, ..."
std::string
KindList()
{
    std::string s;
    for (const char* k : KIND_NAMES)
    {
        s += (s.empty() ? "" : ", ") + std::string(k);
    }
    return s;
}

/// \return \p s without leading and trailing blanks
std::string
Trim(const std::string& s)
{
    const auto b = s.find_first_not_of(" \t\r\n");
    if (b == std::string::npos)
    {
        return "";
    }
    return s.substr(b, s.find_last_not_of(" \t\r\n") - b + 1);
}

/// \return \p text split at every \p sep (empty pieces kept)
std::vector<std::string>
SplitAt(const std::string& text, char sep)
{
    std::vector<std::string> parts;
    std::string::size_type start = 0;
    for (;;)
    {
        const auto end = text.find(sep, start);
        parts.push_back(text.substr(start, end - start));
        if (end == std::string::npos)
        {
            return parts;
        }
        start = end + 1;
    }
}

/// \return the kind named \p name, or COUNT
FaultKind
KindOf(const std::string& name)
{
    for (size_t k = 0; k < size_t(FaultKind::COUNT); ++k)
    {
        if (name == KIND_NAMES[k])
        {
            return FaultKind(k);
        }
    }
    return FaultKind::COUNT;
}

/// \return the parameters a kind takes, "" if none (for messages)
std::string
ParametersOf(FaultKind kind)
{
    switch (kind)
    {
    case FaultKind::LINK_FLAP:
        return "period (required), count";
    case FaultKind::LINK_DEGRADE:
        return "rate (required)";
    case FaultKind::SWITCH_REBOOT:
        return "down (required)";
    case FaultKind::NIC_STALL:
        return "for";
    case FaultKind::ECN_PROFILE:
        return "kmin, kmax, pmax (required), or restore alone";
    case FaultKind::DROP_CLASS:
        return "class (required), for, prob";
    case FaultKind::PFC_THRESHOLD:
        return "headroom, xoff, alpha (at least one), or restore alone";
    default:
        return "";
    }
}

/// \return true if \p name is a parameter of \p kind
bool
TakesParameter(FaultKind kind, const std::string& name)
{
    switch (kind)
    {
    case FaultKind::LINK_FLAP:
        return name == "period" || name == "count";
    case FaultKind::LINK_DEGRADE:
        return name == "rate";
    case FaultKind::SWITCH_REBOOT:
        return name == "down";
    case FaultKind::NIC_STALL:
        return name == "for";
    case FaultKind::ECN_PROFILE:
        return name == "kmin" || name == "kmax" || name == "pmax";
    case FaultKind::DROP_CLASS:
        return name == "class" || name == "for" || name == "prob";
    case FaultKind::PFC_THRESHOLD:
        return name == "headroom" || name == "xoff" || name == "alpha";
    default:
        return false;
    }
}

/// Syntax example of each kind, for messages.
std::string
ExampleOf(FaultKind kind)
{
    switch (kind)
    {
    case FaultKind::LINK_FLAP:
        return "link-flap:leaf3-spine1@2ms,period=1ms,count=3";
    case FaultKind::LINK_DEGRADE:
        return "link-degrade:leaf3-spine1@2ms,rate=100Gbps";
    case FaultKind::SWITCH_REBOOT:
        return "switch-reboot:spine0@2ms,down=5ms";
    case FaultKind::NIC_STALL:
        return "nic-stall:gpu3@2ms,for=500us";
    case FaultKind::ECN_PROFILE:
        return "ecn-profile:leaf1@1ms,kmin=5KB,kmax=20KB,pmax=0.2";
    case FaultKind::DROP_CLASS:
        return "drop-class:leaf0-spine1@1ms,class=ack,for=200us";
    case FaultKind::PFC_THRESHOLD:
        return "pfc-threshold:leaf1#0@1ms,headroom=4KB";
    default:
        return std::string(KIND_NAMES[size_t(kind)]) + ":leaf3-spine1@2ms";
    }
}

/// A fault being parsed: its spec, its text so far, the parameters seen.
struct Pending
{
    FaultSpec spec;              //!< the fault
    std::string text;            //!< its text, for messages
    std::set<std::string> given; //!< parameters seen
};

/// \return "" if \p p has every required parameter, else the error
std::string
CheckRequired(const Pending& p)
{
    const char* required = nullptr;
    switch (p.spec.kind)
    {
    case FaultKind::ECN_PROFILE:
        if (p.spec.restore)
        {
            if (p.given.size() > 1)
            {
                return "fault '" + p.text +
                       "' takes restore alone (back to the profile at install) or kmin=, "
                       "kmax= and pmax=, not both";
            }
            break;
        }
        for (const char* k : {"kmin", "kmax", "pmax"})
        {
            if (!p.given.count(k))
            {
                required = k;
                break;
            }
        }
        break;
    case FaultKind::PFC_THRESHOLD:
        if (p.spec.restore)
        {
            if (p.given.size() > 1)
            {
                return "fault '" + p.text +
                       "' takes restore alone (back to the profile at install) or headroom=, "
                       "xoff=, alpha=, not both";
            }
            break;
        }
        if (p.given.empty())
        {
            return "fault '" + p.text + "' needs headroom=, xoff= or alpha= (or restore); e.g. " +
                   ExampleOf(p.spec.kind);
        }
        if (p.spec.port >= 0 && (p.given.count("xoff") || p.given.count("alpha")))
        {
            return "fault '" + p.text +
                   "': xoff= and alpha= are switch-wide (the MMU's threshold), so they take a "
                   "switch S, not a port S#k; only headroom= is per port";
        }
        break;
    case FaultKind::LINK_FLAP:
        required = "period";
        break;
    case FaultKind::LINK_DEGRADE:
        required = "rate";
        break;
    case FaultKind::SWITCH_REBOOT:
        required = "down";
        break;
    case FaultKind::DROP_CLASS:
        required = "class";
        break;
    default:
        break;
    }
    if (required && !p.given.count(required))
    {
        return "fault '" + p.text + "' needs " + required + "=...; e.g. " + ExampleOf(p.spec.kind);
    }
    return "";
}

/// \return true if \p kind targets one node (S, S#k or G) rather than a link A-B
bool
OneNodeTarget(FaultKind kind)
{
    return kind == FaultKind::SWITCH_REBOOT || kind == FaultKind::NIC_STALL ||
           kind == FaultKind::ECN_PROFILE || kind == FaultKind::PFC_THRESHOLD;
}

/// \return \p bytes as "5120 B"
std::string
FormatBytes(uint64_t bytes)
{
    return std::to_string(bytes) + " B";
}

/// Parse a time parameter or the fault time; \return the error ("" if none)
std::string
ParseTimeValue(const std::string& what, const std::string& text, const std::string& fault, Time& t)
{
    if (!FabricCommandLine::ParseTime(text, t) || t.IsStrictlyNegative())
    {
        return what + " '" + text + "' in '" + fault +
               "' is invalid; give a time >= 0 with an ns-3 unit, e.g. 2ms, 500us, 1.5s";
    }
    return "";
}

} // namespace

const char*
FaultKindName(FaultKind kind)
{
    NS_ABORT_MSG_IF(kind >= FaultKind::COUNT, "FaultKindName: not a fault kind");
    return KIND_NAMES[size_t(kind)];
}

// ---- FaultSpec -----------------------------------------------------------------------------

std::string
FaultSpec::GetTarget() const
{
    if (nodeB.empty())
    {
        return nodeA + (port >= 0 ? "#" + std::to_string(port) : "");
    }
    return nodeA + "-" + nodeB + (cable >= 0 ? "#" + std::to_string(cable) : "");
}

std::string
FaultSpec::Describe() const
{
    std::ostringstream os;
    os << FaultKindName(kind) << ' ' << GetTarget() << " @ " << FormatTime(at);
    switch (kind)
    {
    case FaultKind::LINK_FLAP:
        os << ", period " << FormatTime(period) << ", count " << count;
        break;
    case FaultKind::LINK_DEGRADE:
        os << ", rate " << (restore ? std::string("restore") : FormatRate(rate));
        break;
    case FaultKind::SWITCH_REBOOT:
        os << ", down " << FormatTime(down);
        break;
    case FaultKind::NIC_STALL:
        os << (duration.IsZero() ? std::string(", to the end") : ", for " + FormatTime(duration));
        break;
    case FaultKind::DROP_CLASS:
        os << ", class " << FabricPacketClassName(packetClass)
           << (duration.IsZero() ? std::string(", to the end") : ", for " + FormatTime(duration));
        if (probability != 1)
        {
            os << ", prob " << probability;
        }
        break;
    case FaultKind::PFC_THRESHOLD:
        if (restore)
        {
            os << ", restore";
        }
        if (headroom)
        {
            os << ", headroom " << FormatBytes(*headroom);
        }
        if (xoff)
        {
            os << ", xoff " << FormatBytes(*xoff);
        }
        if (alpha)
        {
            os << ", alpha " << *alpha;
        }
        break;
    case FaultKind::ECN_PROFILE:
        if (restore)
        {
            os << ", restore";
        }
        else
        {
            os << ", kmin " << FormatBytes(kmin) << ", kmax " << FormatBytes(kmax) << ", pmax "
               << pmax;
        }
        break;
    default:
        break;
    }
    return os.str();
}

std::string
FaultSpec::FormatTime(Time t)
{
    struct Unit
    {
        Time::Unit unit;
        const char* name;
        double scale;
    };

    const Unit units[] = {{Time::S, "s", 1},
                          {Time::MS, "ms", 1e-3},
                          {Time::US, "us", 1e-6},
                          {Time::NS, "ns", 1e-9}};
    std::ostringstream os;
    os << std::setprecision(6);
    const double seconds = std::abs(t.GetSeconds());
    for (const Unit& u : units)
    {
        if (seconds >= u.scale || u.unit == Time::NS)
        {
            os << t.ToDouble(u.unit) << ' ' << (seconds == 0 ? "s" : u.name);
            return os.str();
        }
    }
    return os.str();
}

std::string
FaultSpec::FormatRate(DataRate rate)
{
    return FabricFormatRate(double(rate.GetBitRate()));
}

std::string
FaultHelper::GetSyntaxHelp()
{
    return "kind:target@time[,key=value], several separated by ';' or ','; kinds link-down, "
           "link-up, link-flap (period=, count=), link-degrade (rate=, or rate=restore), "
           "link-restore on A-B (every cable) or A-B#k (the k-th, from 0), switch-reboot "
           "(down=) on a switch, nic-stall (for=) on a GPU, ecn-profile (kmin=, kmax=, pmax=, "
           "or restore) on a switch S or its port S#k, drop-class (class=ack|nak|cnp, for=, prob=) "
           "on A-B, pfc-threshold (headroom=, xoff=, alpha=, or restore) on a switch S or its "
           "port S#k (headroom only); e.g. link-down:leaf3-spine1@2ms";
}

std::string
FaultHelper::CheckValues(const FaultSpec& s)
{
    if (s.kind >= FaultKind::COUNT)
    {
        return "unknown fault kind; valid kinds: " + KindList();
    }
    const std::string f = "fault '" + s.Describe() + "'";
    if (s.nodeA.empty() || (!OneNodeTarget(s.kind) && s.nodeB.empty()))
    {
        return "fault of kind " + std::string(FaultKindName(s.kind)) + " has no target; e.g. " +
               ExampleOf(s.kind);
    }
    if (s.at.IsStrictlyNegative())
    {
        return f + ": time " + FaultSpec::FormatTime(s.at) + " is invalid; it must be >= 0";
    }
    switch (s.kind)
    {
    case FaultKind::LINK_FLAP:
        if (!s.period.IsStrictlyPositive() || (s.period / 2).IsZero())
        {
            return f + ": period " + FaultSpec::FormatTime(s.period) +
                   " is invalid; it must be > 0 (down for period/2, then up for period/2)";
        }
        if (s.count < 1 || s.count > MAX_FLAP_COUNT)
        {
            return f + ": count " + std::to_string(s.count) + " is invalid; valid range 1.." +
                   std::to_string(MAX_FLAP_COUNT);
        }
        break;
    case FaultKind::LINK_DEGRADE:
        if (!s.restore && s.rate.GetBitRate() == 0)
        {
            return f + ": rate 0 is invalid; it must be > 0 bit/s (link-down cuts a cable, "
                       "rate=restore undoes a degrade)";
        }
        break;
    case FaultKind::SWITCH_REBOOT:
        if (!s.down.IsStrictlyPositive())
        {
            return f + ": down " + FaultSpec::FormatTime(s.down) + " is invalid; it must be > 0";
        }
        break;
    case FaultKind::DROP_CLASS:
        if (s.packetClass == FabricPacketClass::OTHER || s.packetClass >= FabricPacketClass::COUNT)
        {
            return f + ": class " + std::to_string(unsigned(s.packetClass)) +
                   " is invalid; valid: ack, nak, cnp";
        }
        if (!(s.probability > 0 && s.probability <= 1))
        {
            std::ostringstream v;
            v << s.probability;
            return f + ": prob " + v.str() + " is invalid; valid range (0, 1]";
        }
        [[fallthrough]];
    case FaultKind::NIC_STALL:
        if (s.duration.IsStrictlyNegative())
        {
            return f + ": for " + FaultSpec::FormatTime(s.duration) +
                   " is invalid; it must be > 0 (or 0: to the end)";
        }
        break;
    case FaultKind::PFC_THRESHOLD:
        if (s.restore)
        {
            break;
        }
        if (!s.headroom && !s.xoff && !s.alpha)
        {
            return f + ": nothing to set; give headroom=, xoff= or alpha= (or restore)";
        }
        if (s.alpha && !(*s.alpha > 0))
        {
            std::ostringstream v;
            v << *s.alpha;
            return f + ": alpha " + v.str() + " is invalid; it must be > 0";
        }
        if (s.port >= 0 && (s.xoff || s.alpha))
        {
            return f + ": xoff and alpha are switch-wide; give the switch, not port #" +
                   std::to_string(s.port);
        }
        break;
    case FaultKind::ECN_PROFILE:
        if (s.restore)
        {
            break;
        }
        if (s.kmin > s.kmax)
        {
            return f + ": kmin " + FormatBytes(s.kmin) + " is above kmax " + FormatBytes(s.kmax) +
                   "; kmin must be <= kmax";
        }
        if (!(s.pmax > 0 && s.pmax <= 1))
        {
            std::ostringstream v;
            v << s.pmax;
            return f + ": pmax " + v.str() + " is invalid; valid range (0, 1]";
        }
        break;
    default:
        break;
    }
    return "";
}

bool
FaultHelper::TryParse(const std::string& text, std::vector<FaultSpec>& specs, std::string& error)
{
    std::vector<FaultSpec> out;
    std::vector<Pending> pending;
    auto finish = [&]() -> std::string {
        if (pending.empty())
        {
            return "";
        }
        const std::string e = CheckRequired(pending.back());
        if (!e.empty())
        {
            return e;
        }
        const std::string v = CheckValues(pending.back().spec);
        if (!v.empty())
        {
            return v;
        }
        out.push_back(pending.back().spec);
        pending.clear();
        return "";
    };
    for (const std::string& segment : SplitAt(text, ';'))
    {
        // A ';' always ends a fault: its parameters cannot follow in the next segment.
        error = finish();
        if (!error.empty())
        {
            return false;
        }
        for (const std::string& raw : SplitAt(segment, ','))
        {
            const std::string token = Trim(raw);
            if (token.empty())
            {
                continue;
            }
            const auto colon = token.find(':');
            const auto eq = token.find('=');
            if (colon != std::string::npos && (eq == std::string::npos || colon < eq))
            {
                // A new fault: kind:target@time.
                error = finish();
                if (!error.empty())
                {
                    return false;
                }
                Pending p;
                p.text = token;
                const std::string kindName = Trim(token.substr(0, colon));
                p.spec.kind = KindOf(kindName);
                if (p.spec.kind == FaultKind::COUNT)
                {
                    error = "unknown fault kind '" + kindName + "' in '" + token +
                            "'; valid kinds: " + KindList();
                    return false;
                }
                const std::string rest = token.substr(colon + 1);
                const auto at = rest.find('@');
                if (at == std::string::npos)
                {
                    error = "fault '" + token + "' has no time; write kind:target@time, e.g. " +
                            ExampleOf(p.spec.kind);
                    return false;
                }
                const std::string target = Trim(rest.substr(0, at));
                error = ParseTimeValue("time", Trim(rest.substr(at + 1)), token, p.spec.at);
                if (!error.empty())
                {
                    return false;
                }
                if (p.spec.kind == FaultKind::SWITCH_REBOOT || p.spec.kind == FaultKind::NIC_STALL)
                {
                    if (target.empty() || target.find_first_of("-#") != std::string::npos)
                    {
                        error = "target '" + target + "' in '" + token + "' is invalid; " +
                                FaultKindName(p.spec.kind) + " takes one " +
                                (p.spec.kind == FaultKind::NIC_STALL ? "GPU" : "switch") +
                                " name, e.g. " + ExampleOf(p.spec.kind);
                        return false;
                    }
                    p.spec.nodeA = target;
                }
                else if (p.spec.kind == FaultKind::ECN_PROFILE ||
                         p.spec.kind == FaultKind::PFC_THRESHOLD)
                {
                    const auto hash = target.find('#');
                    const std::string name = Trim(target.substr(0, hash));
                    if (name.empty() || name.find('-') != std::string::npos)
                    {
                        error = "target '" + target + "' in '" + token + "' is invalid; " +
                                FaultKindName(p.spec.kind) +
                                " takes one switch name S (every port) or S#k (its port k), "
                                "e.g. " +
                                ExampleOf(p.spec.kind);
                        return false;
                    }
                    if (hash != std::string::npos)
                    {
                        uint64_t k = 0;
                        std::string why;
                        if (!FabricCommandLine::ParseUnsigned(target.substr(hash + 1), k, why) ||
                            k > uint64_t(INT32_MAX))
                        {
                            error = "port index '" + target.substr(hash + 1) + "' in '" + token +
                                    "' is invalid; write S#k with k a switch port number from 0";
                            return false;
                        }
                        p.spec.port = int32_t(k);
                    }
                    p.spec.nodeA = name;
                }
                else
                {
                    std::string pair = target;
                    const auto hash = target.find('#');
                    if (hash != std::string::npos)
                    {
                        pair = target.substr(0, hash);
                        uint64_t k = 0;
                        std::string why;
                        if (!FabricCommandLine::ParseUnsigned(target.substr(hash + 1), k, why) ||
                            k > uint64_t(INT32_MAX))
                        {
                            error = "cable index '" + target.substr(hash + 1) + "' in '" + token +
                                    "' is invalid; write A-B#k with k a cable number from 0";
                            return false;
                        }
                        p.spec.cable = int32_t(k);
                    }
                    const std::vector<std::string> nodes = SplitAt(pair, '-');
                    if (nodes.size() != 2 || Trim(nodes[0]).empty() || Trim(nodes[1]).empty())
                    {
                        error = "target '" + target + "' in '" + token + "' is invalid; " +
                                FaultKindName(p.spec.kind) +
                                " takes two node names A-B (or A-B#k for one of their "
                                "cables), e.g. " +
                                ExampleOf(p.spec.kind);
                        return false;
                    }
                    p.spec.nodeA = Trim(nodes[0]);
                    p.spec.nodeB = Trim(nodes[1]);
                    if (p.spec.nodeA == p.spec.nodeB)
                    {
                        error = "target '" + target + "' in '" + token +
                                "' is invalid; a link joins two different nodes";
                        return false;
                    }
                }
                pending.push_back(p);
                continue;
            }
            if (eq == std::string::npos && token == "restore" && !pending.empty() &&
                (pending.back().spec.kind == FaultKind::ECN_PROFILE ||
                 pending.back().spec.kind == FaultKind::PFC_THRESHOLD))
            {
                Pending& p = pending.back();
                p.text += "," + token;
                if (!p.given.insert(token).second)
                {
                    error = "parameter 'restore' is given twice in '" + p.text + "'";
                    return false;
                }
                p.spec.restore = true;
                continue;
            }
            if (eq == std::string::npos)
            {
                error = "'" + token +
                        "' is neither a fault (kind:target@time) nor a parameter (key=value); "
                        "valid kinds: " +
                        KindList();
                return false;
            }
            // A parameter of the current fault.
            const std::string key = Trim(token.substr(0, eq));
            const std::string value = Trim(token.substr(eq + 1));
            if (pending.empty())
            {
                error = "parameter '" + token +
                        "' comes before any fault; write kind:target@time,key=value";
                return false;
            }
            Pending& p = pending.back();
            const FaultKind kind = p.spec.kind;
            p.text += "," + token;
            if (!TakesParameter(kind, key))
            {
                const std::string valid = ParametersOf(kind);
                error = "parameter '" + key + "' in '" + p.text + "' does not apply to " +
                        FaultKindName(kind) + "; " +
                        (valid.empty() ? std::string("it takes none") : "valid: " + valid);
                return false;
            }
            if (!p.given.insert(key).second)
            {
                error = "parameter '" + key + "' is given twice in '" + p.text + "'";
                return false;
            }
            if (key == "period" || key == "down" || key == "for")
            {
                Time& t = key == "period" ? p.spec.period
                          : key == "down" ? p.spec.down
                                          : p.spec.duration;
                error = ParseTimeValue(key, value, p.text, t);
                if (!error.empty())
                {
                    return false;
                }
                if (!t.IsStrictlyPositive())
                {
                    error = key + " '" + value + "' in '" + p.text + "' is invalid; it must be > 0";
                    return false;
                }
            }
            else if (key == "count")
            {
                uint64_t n = 0;
                std::string why;
                if (!FabricCommandLine::ParseUnsigned(value, n, why) || n < 1 || n > MAX_FLAP_COUNT)
                {
                    error = "count '" + value + "' in '" + p.text +
                            "' is invalid; valid range 1.." + std::to_string(MAX_FLAP_COUNT);
                    return false;
                }
                p.spec.count = uint32_t(n);
            }
            else if (key == "headroom" || key == "xoff")
            {
                uint64_t bytes = 0;
                std::string why;
                if (!FabricCommandLine::ParseBytes(value, bytes, why))
                {
                    error = key + " '" + value + "' in '" + p.text +
                            "' is invalid; give a byte count, e.g. 4096, 4KB (KB = 1024 bytes)";
                    return false;
                }
                (key == "headroom" ? p.spec.headroom : p.spec.xoff) = bytes;
            }
            else if (key == "alpha")
            {
                char* end = nullptr;
                const double v = value.empty() ? 0 : std::strtod(value.c_str(), &end);
                if (value.empty() || *end != '\0' || !(v > 0) || !std::isfinite(v))
                {
                    error = "alpha '" + value + "' in '" + p.text +
                            "' is invalid; give a factor > 0, e.g. 0.125, 1, 8";
                    return false;
                }
                p.spec.alpha = v;
            }
            else if (key == "kmin" || key == "kmax")
            {
                uint64_t bytes = 0;
                std::string why;
                if (!FabricCommandLine::ParseBytes(value, bytes, why))
                {
                    error = key + " '" + value + "' in '" + p.text +
                            "' is invalid; give a byte count, e.g. 20480, 20KB (KB = 1024 bytes)";
                    return false;
                }
                (key == "kmin" ? p.spec.kmin : p.spec.kmax) = bytes;
            }
            else if (key == "pmax" || key == "prob")
            {
                char* end = nullptr;
                const double v = value.empty() ? 0 : std::strtod(value.c_str(), &end);
                if (value.empty() || *end != '\0' || !(v > 0 && v <= 1))
                {
                    error = key + " '" + value + "' in '" + p.text +
                            "' is invalid; give a probability in the range (0, 1], e.g. " +
                            (key == "pmax" ? "0.2" : "0.5");
                    return false;
                }
                (key == "pmax" ? p.spec.pmax : p.spec.probability) = v;
            }
            else if (key == "class")
            {
                bool found = false;
                for (auto c :
                     {FabricPacketClass::ACK, FabricPacketClass::NAK, FabricPacketClass::CNP})
                {
                    if (value == FabricPacketClassName(c))
                    {
                        p.spec.packetClass = c;
                        found = true;
                    }
                }
                if (!found)
                {
                    error = "class '" + value + "' in '" + p.text +
                            "' is invalid; valid classes: ack, nak, cnp";
                    return false;
                }
            }
            else if (key == "rate")
            {
                if (value == "restore")
                {
                    p.spec.restore = true;
                    continue;
                }
                DataRateValue rate;
                if (value.empty() || value[0] == '-' || value[0] == '+' ||
                    !rate.DeserializeFromString(value, MakeDataRateChecker()) ||
                    rate.Get().GetBitRate() == 0)
                {
                    error = "rate '" + value + "' in '" + p.text +
                            "' is invalid; give a rate > 0 with a unit (e.g. 100Gbps, "
                            "400Gb/s) or restore";
                    return false;
                }
                p.spec.rate = rate.Get();
            }
        }
    }
    error = finish();
    if (!error.empty())
    {
        return false;
    }
    specs.insert(specs.end(), out.begin(), out.end());
    return true;
}

std::vector<FaultSpec>
FaultHelper::Parse(const std::string& text)
{
    std::vector<FaultSpec> specs;
    std::string error;
    FABRIC_INPUT_ERROR_IF(!TryParse(text, specs, error), error);
    return specs;
}

} // namespace ns3
