/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "fabric-attribute-checker.h"

#include "fabric-input-error.h"

#include "ns3/abort.h"
#include "ns3/type-id.h"

#include <cmath>
#include <iomanip>
#include <list>
#include <sstream>

namespace ns3
{

FabricAttributeChecker::FabricAttributeChecker(Ptr<const AttributeChecker> type,
                                               std::string attribute,
                                               std::string range)
    : m_type(type),
      m_attribute(std::move(attribute)),
      m_range(std::move(range))
{
    NS_ABORT_MSG_IF(!m_type, "FabricAttributeChecker " << m_attribute << ": no type checker");
}

FabricAttributeChecker::~FabricAttributeChecker() = default;

const std::string&
FabricAttributeChecker::GetAttributeName() const
{
    return m_attribute;
}

const std::string&
FabricAttributeChecker::GetRange() const
{
    return m_range;
}

std::string
FabricAttributeChecker::GetValueTypeName() const
{
    return m_type->GetValueTypeName();
}

bool
FabricAttributeChecker::HasUnderlyingTypeInformation() const
{
    return true;
}

std::string
FabricAttributeChecker::GetUnderlyingTypeInformation() const
{
    return "valid range " + m_range;
}

Ptr<AttributeValue>
FabricAttributeChecker::Create() const
{
    return m_type->Create();
}

bool
FabricAttributeChecker::Copy(const AttributeValue& source, AttributeValue& destination) const
{
    return m_type->Copy(source, destination);
}

Ptr<const AttributeChecker>
FabricAttributeChecker::GetTypeChecker() const
{
    return m_type;
}

void
FabricAttributeChecker::ReportOutOfRange(const std::string& value) const
{
    FABRIC_INPUT_ERROR(m_attribute << "=" << value << " is out of range: valid range " << m_range);
}

std::string
FabricFormatTime(Time t)
{
    if (t.IsZero())
    {
        return "0s";
    }
    static const std::pair<Time::Unit, const char*> units[] = {{Time::S, "s"},
                                                               {Time::MS, "ms"},
                                                               {Time::US, "us"},
                                                               {Time::NS, "ns"},
                                                               {Time::PS, "ps"},
                                                               {Time::FS, "fs"}};
    for (const auto& [unit, suffix] : units)
    {
        int64x64_t v = t.To(unit);
        if (v.GetLow() == 0)
        {
            return std::to_string(v.GetHigh()) + suffix;
        }
    }
    std::ostringstream os;
    os << t.As(Time::S);
    return os.str();
}

std::string
FabricFormatDataRate(DataRate rate)
{
    return std::to_string(rate.GetBitRate()) + "bps";
}

namespace
{

/// \return \p v as text, as short as it reads exactly enough ("1", "0.5", "1e-09")
std::string
FormatDouble(double v)
{
    std::ostringstream os;
    os.precision(15);
    os << v;
    return os.str();
}

} // namespace

Ptr<const AttributeChecker>
MakeFabricDoubleChecker(std::string attribute, double min, double max)
{
    std::string range = std::isinf(max) ? ">= " + FormatDouble(min)
                                        : "[" + FormatDouble(min) + ", " + FormatDouble(max) + "]";
    return MakeFabricChecker<DoubleValue>(
        MakeDoubleChecker<double>(),
        std::move(attribute),
        [min, max](const double& v) { return v >= min && v <= max; },
        range,
        [](const double& v) { return FormatDouble(v); });
}

Ptr<const AttributeChecker>
MakeFabricPositiveDoubleChecker(std::string attribute, double max)
{
    std::string range = std::isinf(max) ? "> 0" : "(0, " + FormatDouble(max) + "]";
    return MakeFabricChecker<DoubleValue>(
        MakeDoubleChecker<double>(),
        std::move(attribute),
        [max](const double& v) { return v > 0 && v <= max; },
        range,
        [](const double& v) { return FormatDouble(v); });
}

Ptr<const AttributeChecker>
MakeFabricTimeChecker(std::string attribute, Time min, Time max)
{
    std::string range = max == Time::Max()
                            ? ">= " + FabricFormatTime(min)
                            : "[" + FabricFormatTime(min) + ", " + FabricFormatTime(max) + "]";
    return MakeFabricChecker<TimeValue>(
        MakeTimeChecker(),
        std::move(attribute),
        [min, max](const Time& v) { return v >= min && v <= max; },
        range,
        [](const Time& v) { return FabricFormatTime(v); });
}

Ptr<const AttributeChecker>
MakeFabricDataRateChecker(std::string attribute, DataRate min)
{
    std::string range =
        min.GetBitRate() == 1 ? std::string("> 0bps") : ">= " + FabricFormatDataRate(min);
    return MakeFabricChecker<DataRateValue>(
        MakeDataRateChecker(),
        std::move(attribute),
        [min](const DataRate& v) { return v >= min; },
        range,
        [](const DataRate& v) { return FabricFormatDataRate(v); });
}

void
FabricResolveInheritedAttributes(int argc, char* argv[])
{
    static std::list<std::string> rewritten; // argv entries must outlive main()'s parsing
    for (int i = 1; i < argc; ++i)
    {
        const std::string arg(argv[i]);
        const std::size_t dashes = arg.compare(0, 7, "--ns3::") == 0  ? 2
                                   : arg.compare(0, 6, "-ns3::") == 0 ? 1
                                                                      : 0;
        const std::size_t eq = arg.find('=');
        if (dashes == 0 || eq == std::string::npos)
        {
            continue;
        }
        const std::string name = arg.substr(dashes, eq - dashes);
        const std::size_t sep = name.rfind("::");
        TypeId tid;
        if (sep == std::string::npos || !TypeId::LookupByNameFailSafe(name.substr(0, sep), &tid))
        {
            continue;
        }
        const std::string attr = name.substr(sep + 2);
        for (TypeId t = tid;; t = t.GetParent())
        {
            bool own = false;
            for (std::size_t j = 0; j < t.GetAttributeN(); ++j)
            {
                own = own || t.GetAttribute(j).name == attr;
            }
            if (own)
            {
                if (t != tid)
                {
                    rewritten.push_back(arg.substr(0, dashes) + t.GetName() + "::" + attr +
                                        arg.substr(eq));
                    argv[i] = rewritten.back().data();
                }
                break;
            }
            if (t.GetParent() == t)
            {
                break;
            }
        }
    }
}

std::string
FabricFormatRate(double bps)
{
    std::ostringstream os;
    os << std::setprecision(6);
    if (bps >= 1e12)
    {
        os << bps / 1e12 << " Tb/s";
    }
    else if (bps >= 1e9)
    {
        os << bps / 1e9 << " Gb/s";
    }
    else if (bps >= 1e6)
    {
        os << bps / 1e6 << " Mb/s";
    }
    else
    {
        os << bps << " b/s";
    }
    return os.str();
}

} // namespace ns3
