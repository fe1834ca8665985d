/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: errors in what the user gave (a flag, an attribute value, a file), told apart
 * from the model's internal invariants.
 */
#ifndef FABRIC_INPUT_ERROR_H
#define FABRIC_INPUT_ERROR_H

#include <sstream>
#include <string>

namespace ns3
{

/**
 * \ingroup ai-fabric-engine
 * \brief How the module reports an error in its input: a command-line flag, an attribute
 *        value, a file, a configuration that cannot work.
 *
 * FABRIC_INPUT_ERROR(msg) and FABRIC_INPUT_ERROR_IF(cond, msg) replace NS_ABORT_MSG and
 * NS_ABORT_MSG_IF where the condition checks what the user gave (model invariants keep
 * NS_ABORT_MSG/NS_ASSERT). By default they behave exactly like NS_ABORT_MSG: the message on
 * stderr ("aborted. msg=..., file=..., line=...") and std::terminate(), so library users and
 * the death tests see no difference. A program that wants input errors to end it cleanly
 * (every example, through FabricCommandLine) calls SetExitOnError(): an input error then
 * prints ONE line, "<program>: error: <message>", flushes std::cout and exits with status
 * ExitStatus (2), without a signal, so a driver such as tools/sweep.py reports the message
 * instead of "killed by signal 6".
 *
 * The choice is process-wide (like ns-3's own FatalImpl stream registry and std::set_terminate):
 * it is made once, at the start of main, by the program; the library never changes it.
 */
class FabricInputError
{
  public:
    /// Exit status of a program that ends on an input error (SetExitOnError()).
    static constexpr int ExitStatus = 2;

    /**
     * \brief Report an input error and end the program (see the class text).
     * \param message what is wrong and what is valid, e.g. "--size=-4 is invalid; valid range
     *        is 4..18446744073709551612"
     * \param file source file of the check (printed in the abort form only)
     * \param line source line of the check (printed in the abort form only)
     */
    [[noreturn]] static void Raise(const std::string& message, const char* file, int line);

    /**
     * \brief From now on, input errors end the program with one line and ExitStatus.
     * \param program the name printed before "error:" (e.g. "cc-workload"); empty: "ai-fabric"
     */
    static void SetExitOnError(const std::string& program);

    /// \return true if SetExitOnError() was called
    static bool IsExitOnError();

    /**
     * \brief Print "<program>: error: <message>" on stderr, flush std::cout and std::cerr, and
     *        exit with ExitStatus; a program's own checks call it directly.
     * \param message the error
     */
    [[noreturn]] static void Exit(const std::string& message);
};

} // namespace ns3

/**
 * \ingroup ai-fabric-engine
 * \brief An input error (FabricInputError::Raise): \p msg is streamed, like NS_ABORT_MSG's.
 */
#define FABRIC_INPUT_ERROR(msg)                                                                    \
    do                                                                                             \
    {                                                                                              \
        std::ostringstream fabricInputErrorText_;                                                  \
        fabricInputErrorText_ << msg;                                                              \
        ::ns3::FabricInputError::Raise(fabricInputErrorText_.str(), __FILE__, __LINE__);           \
    } while (false)

/**
 * \ingroup ai-fabric-engine
 * \brief An input error if \p cond holds (like NS_ABORT_MSG_IF).
 */
#define FABRIC_INPUT_ERROR_IF(cond, msg)                                                           \
    do                                                                                             \
    {                                                                                              \
        if (cond)                                                                                  \
        {                                                                                          \
            FABRIC_INPUT_ERROR(msg);                                                               \
        }                                                                                          \
    } while (false)

#endif // FABRIC_INPUT_ERROR_H
