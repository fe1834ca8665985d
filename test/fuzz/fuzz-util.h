/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: helpers shared by the libFuzzer harnesses of test/fuzz.
 */
#ifndef AI_FABRIC_FUZZ_UTIL_H
#define AI_FABRIC_FUZZ_UTIL_H

#include "ns3/buffer.h"
#include "ns3/chunk.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

/**
 * \brief Check a property of the code under fuzzing: if \p cond is false, print \p what and
 *        abort, which libFuzzer reports as a crash and saves the input that caused it.
 * \param cond the property
 * \param what what the property says (a streamable expression)
 */
#define FUZZ_CHECK(cond, what)                                                                     \
    do                                                                                             \
    {                                                                                              \
        if (!(cond))                                                                               \
        {                                                                                          \
            std::ostringstream fuzzCheckMessage;                                                   \
            fuzzCheckMessage << what;                                                              \
            std::fprintf(stderr,                                                                   \
                         "%s:%d: property failed: %s: %s\n",                                       \
                         __FILE__,                                                                 \
                         __LINE__,                                                                 \
                         #cond,                                                                    \
                         fuzzCheckMessage.str().c_str());                                          \
            std::abort();                                                                          \
        }                                                                                          \
    } while (false)

namespace ns3
{
namespace fuzz
{

/**
 * \brief A Buffer holding a copy of some bytes (what a packet would hold).
 * \param data the bytes
 * \param size how many
 * \return the buffer
 */
inline Buffer
MakeBuffer(const uint8_t* data, std::size_t size)
{
    Buffer b;
    b.AddAtStart(static_cast<uint32_t>(size));
    b.Begin().Write(data, static_cast<uint32_t>(size));
    return b;
}

/**
 * \brief Deserialize a header from the start of some bytes, as Packet::RemoveHeader does.
 * \param h the header
 * \param data the bytes
 * \param size how many (the caller checks there are at least h's serialized size)
 * \return what Deserialize returned: the number of bytes it consumed
 */
template <class H>
uint32_t
DeserializeHeader(H& h, const uint8_t* data, std::size_t size)
{
    Buffer b = MakeBuffer(data, size);
    return h.Deserialize(b.Begin());
}

/**
 * \brief Deserialize a trailer from the end of some bytes, as Packet::RemoveTrailer does.
 * \param t the trailer
 * \param data the bytes
 * \param size how many (the caller checks there are at least t's serialized size)
 * \return what Deserialize returned: the number of bytes it consumed
 */
template <class T>
uint32_t
DeserializeTrailer(T& t, const uint8_t* data, std::size_t size)
{
    Buffer b = MakeBuffer(data, size);
    return t.Deserialize(b.End());
}

/**
 * \brief The bytes a header serializes to, alone, as Packet::AddHeader writes them.
 * \param h the header
 * \return GetSerializedSize() bytes
 */
template <class H>
std::vector<uint8_t>
SerializeHeader(const H& h)
{
    const uint32_t n = h.GetSerializedSize();
    Buffer b;
    b.AddAtStart(n);
    h.Serialize(b.Begin());
    std::vector<uint8_t> out(n);
    b.CopyData(out.data(), n);
    return out;
}

/**
 * \brief The bytes a trailer serializes to, alone, as Packet::AddTrailer writes them.
 * \param t the trailer
 * \return GetSerializedSize() bytes
 */
template <class T>
std::vector<uint8_t>
SerializeTrailer(const T& t)
{
    const uint32_t n = t.GetSerializedSize();
    Buffer b;
    b.AddAtEnd(n);
    t.Serialize(b.End());
    std::vector<uint8_t> out(n);
    b.CopyData(out.data(), n);
    return out;
}

/**
 * \param c a header or trailer
 * \return what its Print() writes
 */
inline std::string
Printed(const Chunk& c)
{
    std::ostringstream os;
    c.Print(os);
    return os.str();
}

/**
 * \param bytes some bytes
 * \return them in hexadecimal, for messages
 */
inline std::string
Hex(const std::vector<uint8_t>& bytes)
{
    static const char digits[] = "0123456789abcdef";
    std::string s;
    for (uint8_t b : bytes)
    {
        s += digits[b >> 4];
        s += digits[b & 0xF];
    }
    return s;
}

/**
 * \brief The byte-exact round trip every fixed-size header of the module keeps: deserializing
 *        the first SIZE bytes consumes exactly SIZE of them, and serializing the result gives
 *        those bytes back (every bit on the wire, reserved ones included, is kept). Aborts
 *        naming the bytes otherwise.
 * \param h the header to fill
 * \param data the bytes
 * \param size how many (at least H::SIZE)
 * \return the first H::SIZE bytes (what h serializes to)
 */
template <class H>
std::vector<uint8_t>
CheckExactRoundTrip(H& h, const uint8_t* data, std::size_t size)
{
    const std::vector<uint8_t> wire(data, data + H::SIZE);
    const uint32_t consumed = DeserializeHeader(h, data, size);
    FUZZ_CHECK(consumed == H::SIZE,
               "Deserialize consumed " << consumed << " bytes, not " << H::SIZE);
    FUZZ_CHECK(h.GetSerializedSize() == H::SIZE,
               "GetSerializedSize() is " << h.GetSerializedSize() << ", not " << H::SIZE);
    const std::vector<uint8_t> again = SerializeHeader(h);
    FUZZ_CHECK(again == wire, "input " << Hex(wire) << " serialized back as " << Hex(again));
    // A second object deserialized from the re-serialized bytes prints the same.
    H h2;
    DeserializeHeader(h2, again.data(), again.size());
    FUZZ_CHECK(Printed(h2) == Printed(h), "'" << Printed(h) << "' vs '" << Printed(h2) << "'");
    return wire;
}

} // namespace fuzz
} // namespace ns3

#endif /* AI_FABRIC_FUZZ_UTIL_H */
