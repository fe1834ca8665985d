/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: attribute checkers that name the attribute, the value and the valid range.
 */
#ifndef FABRIC_ATTRIBUTE_CHECKER_H
#define FABRIC_ATTRIBUTE_CHECKER_H

#include "ns3/attribute.h"
#include "ns3/data-rate.h"
#include "ns3/double.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"
#include "ns3/uinteger.h"

#include <cstdint>
#include <functional>
#include <limits>
#include <sstream>
#include <string>
#include <type_traits>
#include <utility>

namespace ns3
{

/**
 * \ingroup ai-fabric-engine
 * \brief Base of the module's range checkers: an ns-3 type checker (MakeDoubleChecker(),
 *        MakeTimeChecker(), ...) plus the attribute's full name and its valid range.
 *
 * ns-3 only says "Invalid command-line argument" (CommandLine) or "Could not set default
 * value" (Config::SetDefault) when a checker rejects a value. Every way of setting an
 * attribute (--ns3::Class::Attr=value, Config::SetDefault, Config::Set, ObjectBase::
 * SetAttribute, ObjectFactory::Set, a helper's Set...Attribute) passes the value through
 * AttributeChecker::CreateValidValue(), which calls Check(); so Check() is the earliest place
 * that sees a bad value, and a FabricAttributeChecker raises an input error there
 * (FABRIC_INPUT_ERROR: an abort, or one line and exit status 2 in the examples) with
 *
 *     <ns3::Class::Attr>=<value> is out of range: valid range <range>
 *
 * e.g. "ns3::DcqcnCongestionOps::G=2 is out of range: valid range (0, 1]".
 *
 * Check() of a value of another type (the StringValue CreateValidValue() tries first, before
 * converting it) returns false without aborting, as ns-3 expects; a string that does not parse
 * as the type (G=abc) is left to ns-3's own message. The attribute name is given explicitly
 * (the checker is built before its TypeId exists); the attribute tests check that every
 * FabricAttributeChecker's name is the full name it is registered under.
 */
class FabricAttributeChecker : public AttributeChecker
{
  public:
    /**
     * \param type the ns-3 checker of the value type (its own limits, e.g. those of uint8_t,
     *        still apply and are reported with \p range)
     * \param attribute the attribute's full name, "ns3::Class::Attr"
     * \param range the valid range as users read it, e.g. "(0, 1]", "1..65535", ">= 1ns"
     */
    FabricAttributeChecker(Ptr<const AttributeChecker> type,
                           std::string attribute,
                           std::string range);
    ~FabricAttributeChecker() override;

    /// \return the attribute's full name, "ns3::Class::Attr"
    const std::string& GetAttributeName() const;
    /// \return the valid range as printed in the error
    const std::string& GetRange() const;

    // Delegated to the type checker.
    std::string GetValueTypeName() const override;
    bool HasUnderlyingTypeInformation() const override;
    /// \return "valid range <range>"
    std::string GetUnderlyingTypeInformation() const override;
    Ptr<AttributeValue> Create() const override;
    bool Copy(const AttributeValue& source, AttributeValue& destination) const override;

  protected:
    /// \return the ns-3 type checker
    Ptr<const AttributeChecker> GetTypeChecker() const;

    /**
     * \brief Raise an input error (FABRIC_INPUT_ERROR): "<attribute>=<value> is out of range: valid
     * range <range>". \param value the rejected value as text
     */
    [[noreturn]] void ReportOutOfRange(const std::string& value) const;

  private:
    Ptr<const AttributeChecker> m_type; //!< the ns-3 checker of the value type
    std::string m_attribute;            //!< "ns3::Class::Attr"
    std::string m_range;                //!< the valid range, as text
};

/**
 * \ingroup ai-fabric-engine
 * \brief A FabricAttributeChecker for values of type \p V (DoubleValue, UintegerValue,
 *        TimeValue, DataRateValue, ...): valid when the type checker accepts the value and
 *        the predicate holds for V::Get().
 * \tparam V the attribute value class
 */
template <typename V>
class FabricValueChecker : public FabricAttributeChecker
{
  public:
    /// The underlying type, what V::Get() returns.
    using Underlying = std::decay_t<decltype(std::declval<const V&>().Get())>;
    /// Whether a value is in range.
    using Predicate = std::function<bool(const Underlying&)>;
    /// A value as text, for the error.
    using Formatter = std::function<std::string(const Underlying&)>;

    /**
     * \param type the ns-3 checker of V
     * \param attribute the attribute's full name, "ns3::Class::Attr"
     * \param valid true for the values in range
     * \param range the valid range as text
     * \param format a value as text
     */
    FabricValueChecker(Ptr<const AttributeChecker> type,
                       std::string attribute,
                       Predicate valid,
                       std::string range,
                       Formatter format)
        : FabricAttributeChecker(type, std::move(attribute), std::move(range)),
          m_valid(std::move(valid)),
          m_format(std::move(format))
    {
    }

    /**
     * \param value an attribute value
     * \return true if \p value is a V in range; false if it is of another type (ns-3 then
     *         converts a StringValue and checks again); aborts, naming the attribute, the
     *         value and the range, if it is a V out of range
     */
    bool Check(const AttributeValue& value) const override
    {
        const auto* v = dynamic_cast<const V*>(&value);
        if (v == nullptr)
        {
            return false;
        }
        if (GetTypeChecker()->Check(value) && m_valid(v->Get()))
        {
            return true;
        }
        ReportOutOfRange(m_format(v->Get()));
    }

  private:
    Predicate m_valid;  //!< in range?
    Formatter m_format; //!< value as text
};

/**
 * \param t a time
 * \return \p t in the largest unit (s, ms, us, ns, ps, fs) that shows it exactly, e.g. "0s",
 *         "300us", "-5ns"
 */
std::string FabricFormatTime(Time t);

/**
 * \param rate a data rate
 * \return \p rate in bit/s as ns-3 writes it, e.g. "0bps", "5000000bps"
 */
std::string FabricFormatDataRate(DataRate rate);

/**
 * \param bps a rate in bit/s, >= 0
 * \return \p bps for people: in the largest of Tb/s, Gb/s, Mb/s, b/s that keeps it >= 1, to
 *         6 significant digits, e.g. "400 Gb/s", "2966.4 Gb/s", "25 Mb/s"
 */
std::string FabricFormatRate(double bps);

/**
 * \brief A checker for a value of type \p V with any predicate and range text.
 * \tparam V the attribute value class
 * \param type the ns-3 checker of V (e.g. MakeTimeChecker())
 * \param attribute the attribute's full name, "ns3::Class::Attr"
 * \param valid true for the values in range
 * \param range the valid range as text
 * \param format a value as text
 * \return the checker
 */
template <typename V>
Ptr<const AttributeChecker>
MakeFabricChecker(Ptr<const AttributeChecker> type,
                  std::string attribute,
                  typename FabricValueChecker<V>::Predicate valid,
                  std::string range,
                  typename FabricValueChecker<V>::Formatter format)
{
    return Create<FabricValueChecker<V>>(type,
                                         std::move(attribute),
                                         std::move(valid),
                                         std::move(range),
                                         std::move(format));
}

/**
 * \brief A double in the closed range [min, max] ("[min, max]", or ">= min" if max is
 *        +infinity). NaN is out of every range.
 * \param attribute the attribute's full name, "ns3::Class::Attr"
 * \param min the smallest valid value
 * \param max the largest valid value
 * \return the checker
 */
Ptr<const AttributeChecker> MakeFabricDoubleChecker(
    std::string attribute,
    double min,
    double max = std::numeric_limits<double>::infinity());

/**
 * \brief A double in (0, max] ("(0, max]", or "> 0" if max is +infinity).
 * \param attribute the attribute's full name, "ns3::Class::Attr"
 * \param max the largest valid value
 * \return the checker
 */
Ptr<const AttributeChecker> MakeFabricPositiveDoubleChecker(
    std::string attribute,
    double max = std::numeric_limits<double>::infinity());

/**
 * \brief An unsigned integer of type \p T in [min, max] ("min..max", or ">= min" if max is
 *        the largest value of a 32- or 64-bit \p T).
 * \tparam T the member's type (uint8_t, uint16_t, uint32_t, uint64_t)
 * \param attribute the attribute's full name, "ns3::Class::Attr"
 * \param min the smallest valid value
 * \param max the largest valid value (<= the largest T)
 * \return the checker
 */
template <typename T>
Ptr<const AttributeChecker>
MakeFabricUintegerChecker(std::string attribute,
                          uint64_t min,
                          uint64_t max = std::numeric_limits<T>::max())
{
    static_assert(std::is_unsigned_v<T>, "MakeFabricUintegerChecker needs an unsigned type");
    std::ostringstream range;
    if (max == std::numeric_limits<T>::max() && sizeof(T) >= 4)
    {
        range << ">= " << min;
    }
    else
    {
        range << min << ".." << max;
    }
    return MakeFabricChecker<UintegerValue>(
        MakeUintegerChecker<T>(),
        std::move(attribute),
        [min, max](const uint64_t& v) { return v >= min && v <= max; },
        range.str(),
        [](const uint64_t& v) { return std::to_string(v); });
}

/**
 * \brief A Time in [min, max] ("[min, max]", or ">= min" if max is Time::Max()).
 * \param attribute the attribute's full name, "ns3::Class::Attr"
 * \param min the shortest valid time
 * \param max the longest valid time
 * \return the checker
 */
Ptr<const AttributeChecker> MakeFabricTimeChecker(std::string attribute,
                                                  Time min,
                                                  Time max = Time::Max());

/**
 * \brief A DataRate of at least \p min (">= min"; "> 0bps" if \p min is 1 bit/s).
 * \param attribute the attribute's full name, "ns3::Class::Attr"
 * \param min the lowest valid rate
 * \return the checker
 */
Ptr<const AttributeChecker> MakeFabricDataRateChecker(std::string attribute,
                                                      DataRate min = DataRate(1));

/**
 * \ingroup ai-fabric-engine
 * \brief Let --ns3::Derived::Attr=value set an attribute Derived inherits from a parent class.
 *
 * ns-3's Config::SetDefault, which CommandLine uses for --ns3::Class::Attr=value, looks Attr
 * up in Class's own attributes only, so an attribute registered by a parent class must be
 * spelled with the parent's name (--ns3::FabricTopologyHelper::Servers=64, as --PrintAttributes
 * lists it) and --ns3::RailOptimizedTopologyHelper::Servers=64 is refused as "Invalid
 * command-line argument". Called before CommandLine::Parse(), this rewrites each such argument
 * in place to the class that registers the attribute. Setting a default on that class sets it
 * for every class derived from it, which is what a program with one object of the kind (one
 * topology, one load balancer type) means. Arguments naming an unknown class, an unknown
 * attribute or the registering class itself are left for CommandLine to handle.
 *
 * \param argc the argument count of main()
 * \param argv the arguments of main(); rewritten entries point to storage kept for the
 *        program's lifetime
 */
void FabricResolveInheritedAttributes(int argc, char* argv[]);

} // namespace ns3

#endif // FABRIC_ATTRIBUTE_CHECKER_H
