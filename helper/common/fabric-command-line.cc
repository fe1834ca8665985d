/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "fabric-command-line.h"

#include "fabric-mpi.h"

#include "ns3/boolean.h"
#include "ns3/config.h"
#include "ns3/data-rate.h"
#include "ns3/fabric-attribute-checker.h"
#include "ns3/fabric-input-error.h"
#include "ns3/global-value.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/string.h"
#include "ns3/type-id.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <limits>
#include <regex>
#include <sstream>
#include <sys/stat.h>

namespace ns3
{

/// One flag of the program.
struct FabricCommandLine::Flag
{
    std::string name;             //!< without dashes
    std::string help;             //!< --help text
    std::string defaultText;      //!< default shown by --help
    bool isBool{false};           //!< bare form means "true"
    bool given{false};            //!< seen on the command line
    std::string attributePath;    //!< AddAttribute(): the attribute
    std::string* output{nullptr}; //!< AddOutput(): checked after parsing
    /// Parse and store a value; \return the error ("" if none)
    std::function<std::string(const std::string&)> parse;
};

namespace
{

/// The ns-3 options CommandLine handles itself (help and introspection).
const char* const HARD_OPTIONS[] = {"help",
                                    "PrintHelp",
                                    "PrintGlobals",
                                    "PrintGroups",
                                    "PrintGroup",
                                    "PrintTypeIds",
                                    "PrintAttributes",
                                    "version",
                                    "PrintVersion"};

/// \return \p text without the directory and the ".cc" suffix
std::string
BaseName(const std::string& text)
{
    std::string name =
        text.substr(text.find_last_of('/') == std::string::npos ? 0 : text.find_last_of('/') + 1);
    const std::size_t dot = name.rfind(".cc");
    return dot != std::string::npos && dot + 3 == name.size() ? name.substr(0, dot) : name;
}

/// \return the valid range of a whole-number flag as users read it
std::string
RangeText(uint64_t min, uint64_t max, uint64_t typeMax)
{
    if (max == typeMax && min > 0)
    {
        return ">= " + std::to_string(min);
    }
    return std::to_string(min) + ".." + std::to_string(max);
}

/// \return "--name=value"
std::string
Given(const std::string& name, const std::string& value)
{
    return "--" + name + "=" + value;
}

/// \return \p s in lower case
std::string
Lower(std::string s)
{
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) {
        return static_cast<char>(std::tolower(c));
    });
    return s;
}

/// \return \p s with non-printable bytes as \\xNN (error messages stay one readable line)
std::string
Printable(const std::string& s)
{
    std::string out;
    for (unsigned char c : s)
    {
        if (std::isprint(c))
        {
            out += static_cast<char>(c);
        }
        else
        {
            char buf[8];
            std::snprintf(buf, sizeof(buf), "\\x%02x", c);
            out += buf;
        }
    }
    return out;
}

/// \return the whole-number flag parser for [min, max]
std::function<std::string(const std::string&)>
UnsignedParser(const std::string& name,
               uint64_t min,
               uint64_t max,
               uint64_t typeMax,
               std::function<void(uint64_t)> store,
               bool bytes)
{
    return [=](const std::string& text) -> std::string {
        uint64_t v = 0;
        std::string why;
        const bool ok = bytes ? FabricCommandLine::ParseBytes(text, v, why)
                              : FabricCommandLine::ParseUnsigned(text, v, why);
        const std::string range = RangeText(min, max, typeMax);
        if (!ok)
        {
            return Given(name, Printable(text)) + " is invalid: " + why + "; valid range is " +
                   range + (bytes ? " bytes (units B, KiB, MiB, GiB, TiB)" : "");
        }
        if (v < min || v > max)
        {
            return Given(name, text) + " is invalid; valid range is " + range;
        }
        store(v);
        return "";
    };
}

/**
 * \brief Check the text of an attribute value before ns-3 reads it: ns-3 3.37 wraps negative
 *        numbers of unsigned attributes and aborts on a malformed number.
 * \param checker the attribute's checker
 * \param text the value
 * \return "" if the text has the type's form, else why not
 */
std::string
AttributeTextError(Ptr<const AttributeChecker> checker, const std::string& text)
{
    const std::string type = checker->GetValueTypeName();
    const std::string info = checker->HasUnderlyingTypeInformation()
                                 ? " (" + checker->GetUnderlyingTypeInformation() + ")"
                                 : "";
    if (type == "ns3::UintegerValue")
    {
        uint64_t v = 0;
        std::string why;
        if (!FabricCommandLine::ParseUnsigned(text, v, why))
        {
            return why + "; a whole number is expected" + info;
        }
    }
    else if (type == "ns3::IntegerValue")
    {
        uint64_t v = 0;
        std::string why;
        const bool negative = !text.empty() && text[0] == '-';
        if (!FabricCommandLine::ParseUnsigned(negative ? text.substr(1) : text, v, why) ||
            v > uint64_t(std::numeric_limits<int64_t>::max()))
        {
            return "not a whole number" + info;
        }
    }
    else if (type == "ns3::DoubleValue")
    {
        const char* s = text.c_str();
        char* end = nullptr;
        const double x = std::strtod(s, &end);
        if (text.empty() || end != s + text.size() || !std::isfinite(x))
        {
            return "not a finite number" + info;
        }
    }
    else if (type == "ns3::TimeValue")
    {
        Time t;
        if (!FabricCommandLine::ParseTime(text, t))
        {
            return "not a time; give a number and a unit (s, ms, us, ns, ps), e.g. 10us";
        }
    }
    else if (type == "ns3::BooleanValue")
    {
        const std::string t = Lower(text);
        if (t != "true" && t != "false" && t != "1" && t != "0")
        {
            return "valid values are true, false";
        }
    }
    return "";
}

} // namespace

FabricCommandLine::FabricCommandLine(const std::string& file, const std::string& usage)
    : m_cmd(file),
      m_program(BaseName(file))
{
    FabricInputError::SetExitOnError(m_program);
    if (!usage.empty())
    {
        m_cmd.Usage(usage);
    }
    AddValue("quiet", "No progress reports on stderr", m_quiet);
}

FabricCommandLine::~FabricCommandLine() = default;

void
FabricCommandLine::Register(std::unique_ptr<Flag> flag)
{
    NS_ABORT_MSG_IF(Find(flag->name), "FabricCommandLine: flag --" << flag->name << " added twice");
    Flag* f = flag.get();
    m_flags.push_back(std::move(flag));
    Connect(m_cmd, f, 0);
}

template <typename Cmd>
auto
FabricCommandLine::Connect(Cmd& cmd, Flag* f, int)
    -> decltype(static_cast<void (Cmd::*)(const std::string&,
                                          const std::string&,
                                          Callback<bool, const std::string&>,
                                          const std::string&)>(&Cmd::AddValue),
                void())
{
    cmd.AddValue(f->name,
                 f->help,
                 MakeCallback(&FabricCommandLine::HandleRef, this).Bind(f),
                 f->defaultText);
}

template <typename Cmd>
void
FabricCommandLine::Connect(Cmd& cmd, Flag* f, long)
{
    cmd.AddValue(f->name,
                 f->help,
                 MakeCallback(&FabricCommandLine::Handle, this).Bind(f),
                 f->defaultText);
}

bool
FabricCommandLine::HandleRef(Flag* flag, const std::string& value)
{
    return Handle(flag, value);
}

FabricCommandLine::Flag*
FabricCommandLine::Find(const std::string& name) const
{
    for (const auto& f : m_flags)
    {
        if (f->name == name)
        {
            return f.get();
        }
    }
    return nullptr;
}

bool
FabricCommandLine::Handle(Flag* flag, std::string value)
{
    if (flag->isBool && value.empty())
    {
        value = "true"; // the bare form
    }
    flag->given = true;
    const std::string error = flag->parse(value);
    if (!error.empty() && m_error.empty())
    {
        m_error = error;
    }
    return true; // errors are reported after parsing, as one line
}

void
FabricCommandLine::AddValue(const std::string& name, const std::string& help, bool& value)
{
    auto f = std::make_unique<Flag>();
    f->name = name;
    f->help = help;
    f->defaultText = value ? "true" : "false";
    f->isBool = true;
    bool* v = &value;
    f->parse = [name, v](const std::string& text) -> std::string {
        const std::string t = Lower(text);
        if (t == "true" || t == "1" || t == "yes" || t == "on")
        {
            *v = true;
            return "";
        }
        if (t == "false" || t == "0" || t == "no" || t == "off")
        {
            *v = false;
            return "";
        }
        return Given(name, Printable(text)) +
               " is invalid; valid values are true, false (or the bare --" + name + ")";
    };
    Register(std::move(f));
}

void
FabricCommandLine::AddValue(const std::string& name, const std::string& help, std::string& value)
{
    auto f = std::make_unique<Flag>();
    f->name = name;
    f->help = help;
    f->defaultText = value;
    std::string* v = &value;
    f->parse = [v](const std::string& text) -> std::string {
        *v = text;
        return "";
    };
    Register(std::move(f));
}

void
FabricCommandLine::AddValue(const std::string& name,
                            const std::string& help,
                            uint32_t& value,
                            uint32_t min,
                            uint32_t max)
{
    auto f = std::make_unique<Flag>();
    f->name = name;
    f->help = help;
    f->defaultText = std::to_string(value);
    uint32_t* v = &value;
    f->parse = UnsignedParser(
        name,
        min,
        max,
        UINT32_MAX,
        [v](uint64_t x) { *v = static_cast<uint32_t>(x); },
        false);
    Register(std::move(f));
}

void
FabricCommandLine::AddValue(const std::string& name,
                            const std::string& help,
                            uint64_t& value,
                            uint64_t min,
                            uint64_t max)
{
    AddUnsigned64(name, help, value, min, max, false);
}

void
FabricCommandLine::AddBytes(const std::string& name,
                            const std::string& help,
                            uint64_t& value,
                            uint64_t min,
                            uint64_t max)
{
    AddUnsigned64(name, help, value, min, max, true);
}

void
FabricCommandLine::AddUnsigned64(const std::string& name,
                                 const std::string& help,
                                 uint64_t& value,
                                 uint64_t min,
                                 uint64_t max,
                                 bool bytes)
{
    auto f = std::make_unique<Flag>();
    f->name = name;
    f->help = help;
    f->defaultText = std::to_string(value);
    uint64_t* v = &value;
    f->parse = UnsignedParser(
        name,
        min,
        max,
        UINT64_MAX,
        [v](uint64_t x) { *v = x; },
        bytes);
    Register(std::move(f));
}

void
FabricCommandLine::AddValue(const std::string& name,
                            const std::string& help,
                            int64_t& value,
                            int64_t min,
                            int64_t max)
{
    auto f = std::make_unique<Flag>();
    f->name = name;
    f->help = help;
    f->defaultText = std::to_string(value);
    int64_t* v = &value;
    f->parse = [name, v, min, max](const std::string& text) -> std::string {
        const std::string range = std::to_string(min) + ".." + std::to_string(max);
        const bool negative = !text.empty() && text[0] == '-';
        uint64_t mag = 0;
        std::string why;
        if (!ParseUnsigned(negative ? text.substr(1) : text, mag, why) ||
            mag > uint64_t(std::numeric_limits<int64_t>::max()))
        {
            return Given(name, Printable(text)) +
                   " is invalid: " + (why.empty() || why == "negative" ? "too large" : why) +
                   "; valid range is " + range;
        }
        const int64_t x = negative ? -int64_t(mag) : int64_t(mag);
        if (x < min || x > max)
        {
            return Given(name, text) + " is invalid; valid range is " + range;
        }
        *v = x;
        return "";
    };
    Register(std::move(f));
}

void
FabricCommandLine::AddValue(const std::string& name, const std::string& help, double& value)
{
    auto f = std::make_unique<Flag>();
    f->name = name;
    f->help = help;
    std::ostringstream d;
    d << value;
    f->defaultText = d.str();
    double* v = &value;
    f->parse = [name, v](const std::string& text) -> std::string {
        const char* s = text.c_str();
        char* end = nullptr;
        errno = 0;
        const double x = std::strtod(s, &end);
        if (text.empty() || end != s + text.size() || std::isspace((unsigned char)text[0]) ||
            errno == ERANGE || !std::isfinite(x))
        {
            return Given(name, Printable(text)) + " is invalid: not a finite number";
        }
        *v = x;
        return "";
    };
    Register(std::move(f));
}

void
FabricCommandLine::AddValue(const std::string& name, const std::string& help, Time& value)
{
    auto f = std::make_unique<Flag>();
    f->name = name;
    f->help = help;
    std::ostringstream d;
    d << value.As(Time::US);
    f->defaultText = d.str();
    Time* v = &value;
    f->parse = [name, v](const std::string& text) -> std::string {
        Time t;
        if (!ParseTime(text, t))
        {
            return Given(name, Printable(text)) +
                   " is invalid: not a time; give a number and a unit (s, ms, us, ns, ps), "
                   "e.g. 10us";
        }
        *v = t;
        return "";
    };
    Register(std::move(f));
}

void
FabricCommandLine::AddRate(const std::string& name, const std::string& help, std::string& value)
{
    auto f = std::make_unique<Flag>();
    f->name = name;
    f->help = help;
    f->defaultText = value;
    std::string* v = &value;
    f->parse = [name, v](const std::string& text) -> std::string {
        DataRateValue rate;
        if (!rate.DeserializeFromString(text, MakeDataRateChecker()) ||
            rate.Get().GetBitRate() == 0)
        {
            return Given(name, Printable(text)) +
                   " is invalid; give a rate > 0 with a unit, e.g. 100Gbps, 400Gb/s, 25Gbps";
        }
        *v = text;
        return "";
    };
    Register(std::move(f));
}

void
FabricCommandLine::AddList(const std::string& name,
                           const std::string& help,
                           std::vector<std::string>& values,
                           const std::function<std::string(const std::string&)>& check)
{
    auto f = std::make_unique<Flag>();
    f->name = name;
    f->help = help;
    std::vector<std::string>* v = &values;
    f->parse = [v, check](const std::string& text) -> std::string {
        const std::string error = check ? check(text) : std::string();
        if (error.empty())
        {
            v->push_back(text);
        }
        return error;
    };
    Register(std::move(f));
}

void
FabricCommandLine::AddOutput(const std::string& name, const std::string& help, std::string& path)
{
    AddValue(name, help, path);
    m_flags.back()->output = &path;
}

void
FabricCommandLine::AddAttribute(const std::string& name, const std::string& attributePath)
{
    const std::size_t sep = attributePath.rfind("::");
    TypeId tid;
    TypeId::AttributeInformation info;
    NS_ABORT_MSG_IF(sep == std::string::npos ||
                        !TypeId::LookupByNameFailSafe(attributePath.substr(0, sep), &tid) ||
                        !tid.LookupAttributeByName(attributePath.substr(sep + 2), &info),
                    "FabricCommandLine: no attribute " << attributePath);
    auto f = std::make_unique<Flag>();
    f->name = name;
    f->help = info.help;
    f->defaultText = info.initialValue->SerializeToString(info.checker);
    f->isBool = info.checker->GetValueTypeName() == "ns3::BooleanValue";
    f->attributePath = attributePath;
    Flag* me = f.get();
    f->parse = [this, me](const std::string& text) -> std::string {
        const std::size_t s = me->attributePath.rfind("::");
        TypeId t = TypeId::LookupByName(me->attributePath.substr(0, s));
        TypeId::AttributeInformation i;
        t.LookupAttributeByName(me->attributePath.substr(s + 2), &i);
        const std::string form = AttributeTextError(i.checker, text);
        if (!form.empty())
        {
            return Given(me->name, Printable(text)) + " is invalid: " + form;
        }
        // A FabricAttributeChecker reports an out-of-range value itself (an input error).
        if (!i.checker->CreateValidValue(StringValue(text)))
        {
            return Given(me->name, Printable(text)) + " is invalid (" + me->attributePath + ": " +
                   (i.checker->HasUnderlyingTypeInformation()
                        ? i.checker->GetUnderlyingTypeInformation()
                        : i.checker->GetValueTypeName()) +
                   ")";
        }
        m_settings.emplace_back(me->attributePath, text);
        return "";
    };
    Register(std::move(f));
}

void
FabricCommandLine::AddSeed(uint32_t& seed, const std::string& help)
{
    AddValue("seed",
             help + " (ns-3's seed, RngSeedManager::SetSeed; --RngRun picks the run), "
                    "1..4294967295",
             seed,
             1,
             UINT32_MAX);
    m_seed = &seed;
}

void
FabricCommandLine::Parse(int argc, char* argv[], const std::function<void()>& beforeAttributes)
{
    // A program that does not run across processes (no FabricMpi::Enable) started by mpirun
    // would run the same simulation in every process, each writing the same files.
    const uint32_t launched = FabricMpi::GetLaunchedSize();
    if (launched > 1 && !FabricMpi::IsEnabled())
    {
        FabricInputError::Exit(
            "started as " + std::to_string(launched) +
            " MPI processes, but this program runs in one process; run it without mpirun (the "
            "programs that run across processes: distributed-permutation, "
            "distributed-collective, rail-allreduce, uet-matrix, cc-workload)");
    }
    FabricResolveInheritedAttributes(argc, argv); // --ns3::Derived::BaseAttr=...
    std::vector<std::string> args{argc > 0 ? std::string(argv[0]) : m_program};
    std::vector<std::pair<std::string, std::string>> attributes; // --ns3::... in order
    bool rngSeedGiven = false;
    for (int i = 1; i < argc; ++i)
    {
        const std::string arg(argv[i]);
        const std::size_t dashes = arg.compare(0, 2, "--") == 0 ? 2 : arg.compare(0, 1, "-") == 0;
        if (dashes == 0 || arg.size() == dashes)
        {
            FabricInputError::Exit("unexpected argument '" + Printable(arg) +
                                   "'; options are --name=value (see --help)");
        }
        const std::size_t eq = arg.find('=');
        const std::string name = arg.substr(dashes, eq == std::string::npos ? eq : eq - dashes);
        const std::string value = eq == std::string::npos ? "" : arg.substr(eq + 1);
        if (Flag* f = Find(name); f && !f->isBool && eq == std::string::npos)
        {
            FabricInputError::Exit("--" + name + " needs a value: --" + name + "=VALUE");
        }
        if (Find(name) || std::find(std::begin(HARD_OPTIONS), std::end(HARD_OPTIONS), name) !=
                              std::end(HARD_OPTIONS))
        {
            args.push_back(arg);
            continue;
        }
        if (name == "RngRun" || name == "RngSeed")
        {
            uint64_t v = 0;
            std::string why;
            if (!ParseUnsigned(value, v, why) || v > (name == "RngSeed" ? UINT32_MAX : UINT64_MAX))
            {
                FabricInputError::Exit(
                    Given(name, Printable(value)) +
                    " is invalid: " + (why.empty() ? "too large" : why) + "; valid range is " +
                    (name == "RngSeed" ? "1..4294967295" : "0..18446744073709551615"));
            }
            if (name == "RngSeed" && v == 0)
            {
                FabricInputError::Exit("--RngSeed=0 is invalid; valid range is 1..4294967295");
            }
            rngSeedGiven = rngSeedGiven || name == "RngSeed";
            args.push_back(arg);
            continue;
        }
        bool global = false;
        for (auto g = GlobalValue::Begin(); g != GlobalValue::End(); ++g)
        {
            global = global || (*g)->GetName() == name;
        }
        if (global)
        {
            args.push_back(arg);
            continue;
        }
        const std::size_t sep = name.rfind("::");
        if (sep == std::string::npos)
        {
            FabricInputError::Exit("unknown option --" + Printable(name) +
                                   " (see --help for the options of " + m_program + ")");
        }
        TypeId tid;
        TypeId::AttributeInformation info;
        if (!TypeId::LookupByNameFailSafe(name.substr(0, sep), &tid))
        {
            FabricInputError::Exit("--" + Printable(name) + ": there is no class " +
                                   Printable(name.substr(0, sep)) + " (--PrintTypeIds lists them)");
        }
        if (!tid.LookupAttributeByName(name.substr(sep + 2), &info))
        {
            FabricInputError::Exit("--" + Printable(name) + ": class " + tid.GetName() +
                                   " has no attribute " + Printable(name.substr(sep + 2)) +
                                   " (--PrintAttributes=" + tid.GetName() + " lists them)");
        }
        std::string v = value;
        if (eq == std::string::npos)
        {
            if (info.checker->GetValueTypeName() != "ns3::BooleanValue")
            {
                FabricInputError::Exit("--" + name + " needs a value: --" + name + "=VALUE");
            }
            v = "true";
        }
        const std::string form = AttributeTextError(info.checker, v);
        if (!form.empty())
        {
            FabricInputError::Exit("--" + name + "=" + Printable(v) + " is invalid: " + form);
        }
        // A FabricAttributeChecker reports an out-of-range value itself (an input error).
        if (!info.checker->CreateValidValue(StringValue(v)))
        {
            FabricInputError::Exit("--" + name + "=" + Printable(v) + " is invalid: " +
                                   (info.checker->HasUnderlyingTypeInformation()
                                        ? info.checker->GetUnderlyingTypeInformation()
                                        : "not a " + info.checker->GetValueTypeName()));
        }
        attributes.emplace_back(name, v);
    }

    std::vector<char*> ptrs;
    for (std::string& a : args)
    {
        ptrs.push_back(a.data());
    }
    m_cmd.Parse(static_cast<int>(ptrs.size()), ptrs.data());
    if (!m_error.empty())
    {
        FabricInputError::Exit(m_error);
    }

    // Seeds: --seed is ns-3's seed; --RngRun is never overridden.
    if (m_seed)
    {
        if (rngSeedGiven && IsGiven("seed"))
        {
            FabricInputError::Exit("--seed and --RngSeed both set ns-3's seed; give one");
        }
        if (!rngSeedGiven)
        {
            RngSeedManager::SetSeed(*m_seed);
        }
    }
    // Outputs: fail now, not after the simulation.
    for (const auto& f : m_flags)
    {
        if (f->output && !f->output->empty())
        {
            CheckWritable(*f->output, Given(f->name, *f->output));
        }
    }
    if (beforeAttributes)
    {
        beforeAttributes();
    }
    for (const auto& [path, value] : m_settings)
    {
        attributes.emplace_back(path, value);
    }
    for (const auto& [path, value] : attributes)
    {
        if (!Config::SetGlobalFailSafe(path, StringValue(value)) &&
            !Config::SetDefaultFailSafe(path, StringValue(value)))
        {
            FabricInputError::Exit("--" + path + "=" + Printable(value) +
                                   " cannot be set as a default value");
        }
    }
}

bool
FabricCommandLine::IsGiven(const std::string& name) const
{
    const Flag* f = Find(name);
    return f && f->given;
}

bool
FabricCommandLine::IsQuiet() const
{
    return m_quiet;
}

const std::string&
FabricCommandLine::GetProgramName() const
{
    return m_program;
}

void
FabricCommandLine::CheckWritable(const std::string& path, const std::string& what)
{
    struct stat st;
    const bool existed = ::stat(path.c_str(), &st) == 0;
    if (existed && S_ISDIR(st.st_mode))
    {
        FabricInputError::Exit(what + ": is a directory; give a file name");
    }
    errno = 0;
    std::ofstream f(path, std::ios::app);
    if (!f)
    {
        const int e = errno;
        FabricInputError::Exit(what + ": cannot open the file for writing (" +
                               (e ? std::strerror(e) : "unknown reason") + ")");
    }
    f.close();
    if (!existed)
    {
        std::remove(path.c_str());
    }
}

bool
FabricCommandLine::ParseUnsigned(const std::string& text, uint64_t& value, std::string& why)
{
    if (!text.empty() && text[0] == '-' && text.size() > 1 &&
        std::all_of(text.begin() + 1, text.end(), [](unsigned char c) {
            return std::isdigit(c) || c == '.';
        }))
    {
        why = "negative";
        return false;
    }
    if (text.empty() ||
        !std::all_of(text.begin(), text.end(), [](unsigned char c) { return std::isdigit(c); }))
    {
        why = "not a whole number";
        return false;
    }
    uint64_t v = 0;
    for (char c : text)
    {
        const uint64_t d = uint64_t(c - '0');
        if (v > (UINT64_MAX - d) / 10)
        {
            why = "too large";
            return false;
        }
        v = v * 10 + d;
    }
    value = v;
    return true;
}

bool
FabricCommandLine::ParseBytes(const std::string& text, uint64_t& value, std::string& why)
{
    std::size_t digits = 0;
    while (digits < text.size() && std::isdigit(static_cast<unsigned char>(text[digits])))
    {
        ++digits;
    }
    uint64_t v = 0;
    if (!ParseUnsigned(text.substr(0, digits), v, why))
    {
        if (digits == 0 && !text.empty() && text[0] == '-')
        {
            why = "negative";
        }
        return false;
    }
    const std::string unit = Lower(text.substr(digits));
    uint64_t mult = 0;
    if (unit.empty() || unit == "b")
    {
        mult = 1;
    }
    else
    {
        const char u = unit[0];
        const std::string rest = unit.substr(1);
        if (rest.empty() || rest == "b" || rest == "ib")
        {
            mult = u == 'k'   ? 1ull << 10
                   : u == 'm' ? 1ull << 20
                   : u == 'g' ? 1ull << 30
                   : u == 't' ? 1ull << 40
                              : 0;
        }
    }
    if (mult == 0)
    {
        why = "unknown unit '" + Printable(text.substr(digits)) + "'";
        return false;
    }
    if (v > UINT64_MAX / mult)
    {
        why = "too large";
        return false;
    }
    value = v * mult;
    return true;
}

bool
FabricCommandLine::ParseTime(const std::string& text, Time& value)
{
    static const std::regex re(
        R"(^[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?(s|ms|us|ns|ps|fs|min|h|d|y)?$)");
    if (!std::regex_match(text, re))
    {
        return false;
    }
    value = Time(text);
    return true;
}

} // namespace ns3
