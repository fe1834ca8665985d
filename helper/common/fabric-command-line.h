/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: the command-line layer every example uses (on ns-3's CommandLine).
 */
#ifndef FABRIC_COMMAND_LINE_H
#define FABRIC_COMMAND_LINE_H

#include "ns3/command-line.h"
#include "ns3/nstime.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup ai-fabric-helper
 * \brief One command-line layer for ai-fabric programs: ns-3's CommandLine underneath, with
 *        strict flags, one parse, early output checks and clean input errors.
 *
 * What it adds to ns3::CommandLine (which does the parsing, --help and the --Print... options):
 *  - <b>Input errors end the program with status 2 and one line</b>,
 *    "<program>: error: <message>", never with a signal: a malformed or out-of-range flag, an
 *    unknown option, an attribute value a checker refuses, and (through
 *    FabricInputError::SetExitOnError(), which the constructor calls) every input error the
 *    library raises with FABRIC_INPUT_ERROR. Model invariants still abort.
 *  - <b>Strict values</b>: whole-number flags take digits only (no sign, no fraction, no
 *    overflow: "--size=-4" is refused, not read as 18446744073709551612) within a range the
 *    error names; real numbers must parse completely and be finite; times need a number and
 *    an ns-3 unit (or none: seconds); rates are ns-3 DataRate strings.
 *  - <b>Booleans</b> accept the bare form (--pcap means --pcap=true) and true/false/1/0/yes/no;
 *    a bare flag is never toggled (ns-3 3.37 flips a bare bool at every parse).
 *  - <b>One parse</b>: each argument is read once. Attribute settings (--ns3::Class::Attr=v and
 *    the attribute shortcuts of AddAttribute()) are applied after the program's flags and
 *    after the optional hook of Parse(), so an explicit attribute wins over presets the
 *    program sets from its flags (DCQCN presets), with no second parse.
 *  - <b>Seeds</b>: AddSeed() registers --seed, which sets ns-3's seed
 *    (RngSeedManager::SetSeed); ns-3's --RngRun sets the run number and is never overridden.
 *    Both are honoured: a replication is the pair (seed, run), and a different --seed or
 *    --RngRun gives an independent one (arrivals, sizes, permutations, start PSNs, EVs, ECMP
 *    hash seeds: everything drawn from ns-3's streams). --seed and --RngSeed are one setting:
 *    giving both is an error. The defaults (seed 1, run 1) give the same results as before.
 *  - <b>Outputs checked before the simulation</b>: AddOutput() flags (and CheckWritable() for
 *    derived names) are checked writable right after parsing (the file is not truncated; a
 *    new one is removed again), so a bad path fails in milliseconds, not after the run.
 *  - <b>--quiet</b> (every program): no progress reports (IsQuiet()).
 */
class FabricCommandLine
{
  public:
    /**
     * \param file the program's source file (__FILE__): its base name is the program name in
     *        errors and --help
     * \param usage the text --help prints first
     */
    explicit FabricCommandLine(const std::string& file, const std::string& usage = "");
    ~FabricCommandLine();
    FabricCommandLine(const FabricCommandLine&) = delete;
    FabricCommandLine& operator=(const FabricCommandLine&) = delete;

    /**
     * \brief A boolean flag: --name, --name=true|false|1|0|yes|no|on|off.
     * \param name the flag without dashes
     * \param help its --help text
     * \param value the variable (its value is the default)
     */
    void AddValue(const std::string& name, const std::string& help, bool& value);
    /**
     * \brief A text flag (any value, empty included).
     * \param name the flag without dashes
     * \param help its --help text
     * \param value the variable (its value is the default)
     */
    void AddValue(const std::string& name, const std::string& help, std::string& value);
    /**
     * \brief A whole-number flag in [\p min, \p max] (digits only).
     * \param name the flag without dashes
     * \param help its --help text
     * \param value the variable (its value is the default)
     * \param min smallest valid value
     * \param max largest valid value
     */
    void AddValue(const std::string& name,
                  const std::string& help,
                  uint32_t& value,
                  uint32_t min = 0,
                  uint32_t max = UINT32_MAX);
    /// \copydoc AddValue(const std::string&,const std::string&,uint32_t&,uint32_t,uint32_t)
    void AddValue(const std::string& name,
                  const std::string& help,
                  uint64_t& value,
                  uint64_t min = 0,
                  uint64_t max = UINT64_MAX);
    /**
     * \brief A whole-number flag that may be negative, in [\p min, \p max].
     * \param name the flag without dashes
     * \param help its --help text
     * \param value the variable (its value is the default)
     * \param min smallest valid value
     * \param max largest valid value
     */
    void AddValue(const std::string& name,
                  const std::string& help,
                  int64_t& value,
                  int64_t min,
                  int64_t max);
    /**
     * \brief A real-number flag (finite; the program checks its own range).
     * \param name the flag without dashes
     * \param help its --help text
     * \param value the variable (its value is the default)
     */
    void AddValue(const std::string& name, const std::string& help, double& value);
    /**
     * \brief A time flag: a number and an ns-3 unit (s, ms, us, ns, ps, fs, min, h, d, y;
     *        none = seconds).
     * \param name the flag without dashes
     * \param help its --help text
     * \param value the variable (its value is the default)
     */
    void AddValue(const std::string& name, const std::string& help, Time& value);
    /**
     * \brief A data-rate flag kept as text (e.g. "400Gbps"): checked as an ns-3 DataRate > 0.
     * \param name the flag without dashes
     * \param help its --help text
     * \param value the variable (its value is the default)
     */
    void AddRate(const std::string& name, const std::string& help, std::string& value);
    /**
     * \brief A byte-count flag: a whole number with an optional binary unit (B, K/KiB, M/MiB,
     *        G/GiB, T/TiB; also KB/MB/GB as binary, as nccl-tests), in [\p min, \p max].
     * \param name the flag without dashes
     * \param help its --help text
     * \param value the variable (its value is the default)
     * \param min smallest valid value, bytes
     * \param max largest valid value, bytes
     */
    void AddBytes(const std::string& name,
                  const std::string& help,
                  uint64_t& value,
                  uint64_t min = 0,
                  uint64_t max = UINT64_MAX);
    /**
     * \brief A repeatable text flag: each occurrence (--name=a --name=b) appends its value.
     * \param name the flag without dashes
     * \param help its --help text
     * \param values the variable (values given by the program before Parse() stay first)
     * \param check optional: returns the error for a bad value ("" if valid), reported as the
     *        program's one input-error line
     */
    void AddList(const std::string& name,
                 const std::string& help,
                 std::vector<std::string>& values,
                 const std::function<std::string(const std::string&)>& check = {});
    /**
     * \brief An output file flag: checked writable after parsing (empty: no output).
     * \param name the flag without dashes
     * \param help its --help text
     * \param path the variable (its value is the default)
     */
    void AddOutput(const std::string& name, const std::string& help, std::string& path);
    /**
     * \brief A shortcut for an attribute (--name=v sets ns3::Class::Attr's default), checked
     *        by the attribute's checker at parse time and applied with the other attribute
     *        settings; a boolean attribute takes the bare form.
     * \param name the flag without dashes
     * \param attributePath "ns3::Class::Attr" (must exist)
     */
    void AddAttribute(const std::string& name, const std::string& attributePath);
    /**
     * \brief Register --seed (1..4294967295): after parsing, RngSeedManager::SetSeed(seed).
     * \param seed the variable (its value is the default, usually 1)
     * \param help its --help text (what the streams drive)
     */
    void AddSeed(uint32_t& seed, const std::string& help);

    /**
     * \brief Parse the command line (once), check outputs, seed, then apply the attribute
     *        settings; exits with status 2 and one line on an input error.
     * \param argc main's argc
     * \param argv main's argv (FabricResolveInheritedAttributes() may rewrite entries)
     * \param beforeAttributes called after the flags are read and before the attribute
     *        settings are applied (e.g. DCQCN presets the explicit --ns3:: values override)
     */
    void Parse(int argc, char* argv[], const std::function<void()>& beforeAttributes = {});

    /// \return true if the flag \p name was given on the command line (after Parse())
    bool IsGiven(const std::string& name) const;
    /// \return true if --quiet was given: no progress reports
    bool IsQuiet() const;
    /// \return the program name (the source file's base name)
    const std::string& GetProgramName() const;

    /**
     * \brief Check that \p path can be written without truncating it (a new file is created
     *        and removed again); an input error naming \p what otherwise.
     * \param path the file
     * \param what how the user named it, e.g. "--csv=out/x.csv" or "--prefix=x (x-rates.csv)"
     */
    static void CheckWritable(const std::string& path, const std::string& what);

    /**
     * \brief Parse a whole number strictly (digits only).
     * \param text the text
     * \param[out] value the number
     * \param[out] why "not a whole number", "negative" or "too large" on failure
     * \return true on success
     */
    static bool ParseUnsigned(const std::string& text, uint64_t& value, std::string& why);
    /**
     * \brief Parse a byte count ("4096", "64MiB", "1G", "2KB": binary multiples).
     * \param text the text
     * \param[out] value bytes
     * \param[out] why the reason on failure
     * \return true on success
     */
    static bool ParseBytes(const std::string& text, uint64_t& value, std::string& why);
    /**
     * \brief Parse an ns-3 time string strictly ("5us", "1.5ms", "2" = 2 s).
     * \param text the text
     * \param[out] value the time
     * \return true on success
     */
    static bool ParseTime(const std::string& text, Time& value);

  private:
    struct Flag;
    /// Register \p flag with ns-3's CommandLine.
    void Register(std::unique_ptr<Flag> flag);
    /**
     * \brief A 64-bit whole-number flag in [\p min, \p max]: AddValue (digits only) and
     *        AddBytes (with a binary unit).
     * \param name the flag without dashes
     * \param help its --help text
     * \param value the variable (its value is the default)
     * \param min smallest valid value
     * \param max largest valid value
     * \param bytes true: a byte count with an optional unit
     */
    void AddUnsigned64(const std::string& name,
                       const std::string& help,
                       uint64_t& value,
                       uint64_t min,
                       uint64_t max,
                       bool bytes);
    /// Callback target: a flag's value arrived. \return true (errors are recorded)
    bool Handle(Flag* flag, std::string value);
    /// Handle() for ns-3 releases whose CommandLine callbacks take a const reference (3.4x).
    bool HandleRef(Flag* flag, const std::string& value);
    /**
     * \brief Register \p f with ns-3's CommandLine through a callback of the argument type the
     *        release expects: const std::string& where CommandLine::AddValue has exactly that
     *        overload (ns-3.4x), else std::string (ns-3.37). The test is on the member's exact
     *        type: ns-3's Callback converts between signatures unchecked, so a call that
     *        compiles is no proof.
     * \param cmd the CommandLine
     * \param f the flag
     */
    template <typename Cmd>
    auto Connect(Cmd& cmd, Flag* f, int)
        -> decltype(static_cast<void (Cmd::*)(const std::string&,
                                              const std::string&,
                                              Callback<bool, const std::string&>,
                                              const std::string&)>(&Cmd::AddValue),
                    void());
    /// \copydoc Connect(Cmd&,Flag*,int)
    template <typename Cmd>
    void Connect(Cmd& cmd, Flag* f, long);
    /// \return the flag named \p name, or nullptr
    Flag* Find(const std::string& name) const;

    CommandLine m_cmd;                                           //!< ns-3's parser
    std::string m_program;                                       //!< program name
    std::vector<std::unique_ptr<Flag>> m_flags;                  //!< the program's flags
    std::vector<std::pair<std::string, std::string>> m_settings; //!< attribute path, value
    std::string m_error;                                         //!< first error while parsing
    bool m_quiet{false};                                         //!< --quiet
    uint32_t* m_seed{nullptr};                                   //!< AddSeed()'s variable
};

} // namespace ns3

#endif // FABRIC_COMMAND_LINE_H
