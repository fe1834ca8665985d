/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "fabric-input-error.h"

#include "ns3/fatal-impl.h"

#include <cstdlib>
#include <exception>
#include <iostream>

namespace ns3
{

namespace
{
/// The program name of SetExitOnError() (empty: input errors abort).
std::string&
ExitProgram()
{
    static std::string program;
    return program;
}

/// Whether SetExitOnError() was called.
bool&
ExitOnError()
{
    static bool on = false;
    return on;
}
} // namespace

void
FabricInputError::Raise(const std::string& message, const char* file, int line)
{
    if (ExitOnError())
    {
        Exit(message);
    }
    // The NS_ABORT_MSG form.
    std::cerr << "aborted. msg=\"" << message << "\", file=" << file << ", line=" << line
              << std::endl;
    FatalImpl::FlushStreams();
    std::terminate();
}

void
FabricInputError::SetExitOnError(const std::string& program)
{
    ExitProgram() = program.empty() ? "ai-fabric" : program;
    ExitOnError() = true;
}

bool
FabricInputError::IsExitOnError()
{
    return ExitOnError();
}

void
FabricInputError::Exit(const std::string& message)
{
    std::cout.flush();
    const std::string& program = ExitProgram().empty() ? "ai-fabric" : ExitProgram();
    // One readable line: newlines become spaces, other control bytes \xNN.
    std::string line;
    for (unsigned char c : message)
    {
        if (c == '\n' || c == '\r' || c == '\t')
        {
            line += ' ';
        }
        else if (c < 0x20 || c == 0x7f)
        {
            static const char* const hex = "0123456789abcdef";
            line += "\\x";
            line += hex[c >> 4];
            line += hex[c & 15];
        }
        else
        {
            line += static_cast<char>(c);
        }
    }
    std::cerr << program << ": error: " << line << std::endl;
    std::cerr.flush();
    // No static destructors: the error may come from inside Simulator::Run().
    std::_Exit(ExitStatus);
}

} // namespace ns3
