/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: libFuzzer harness of FlowList::Parse (flow-list files), FlowListReader and the
 * conversion to and from htsim connection matrices.
 */
#include "fuzz-util.h"

#include "ns3/flow-list.h"

#include <limits>
#include <memory>

using namespace ns3;

/**
 * \brief Picosecond Time resolution, as the examples and tests use (a flow list keeps
 *        picoseconds).
 * \return 0
 */
extern "C" int
LLVMFuzzerInitialize(int* /* argc */, char*** /* argv */)
{
    Time::SetResolution(Time::PS);
    return 0;
}

/**
 * \brief Parse the input as a flow list. On failure the message names the file and a line.
 *        On success: every flow goes between two different hosts, has a size >= 1 and starts
 *        no earlier than the previous one, ids count from 1; Write() parses back to the same
 *        flows; FlowListReader reads the same flows lazily; the flows converted to an htsim
 *        matrix, written in htsim's format, parsed and converted back are the same flows (when
 *        every start is below 2^53 ps, about 2.5 hours: HtsimConnectionMatrix reads start
 *        times as a double number of microseconds, exact to the picosecond only up to there).
 * \param data the input
 * \param size its length
 * \return 0
 */
extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const std::string text(reinterpret_cast<const char*>(data), size);
    std::vector<FlowSpec> flows;
    std::string error;
    {
        std::istringstream in(text);
        if (!FlowList::Parse(in, "fuzz", flows, error))
        {
            FUZZ_CHECK(error.rfind("fuzz:", 0) == 0 && error.size() > 5 && error[5] >= '1' &&
                           error[5] <= '9',
                       "error message '" << error << "' names no line");
            FUZZ_CHECK(flows.empty(), "the output changed on error");
            return 0;
        }
    }
    bool hostMax = false; // a host htsim cannot number (its node count would overflow)
    bool late = false;    // a start htsim's parser cannot keep to the picosecond
    for (std::size_t i = 0; i < flows.size(); ++i)
    {
        const FlowSpec& f = flows[i];
        FUZZ_CHECK(f.id == i + 1, "flow " << i << " has id " << f.id);
        FUZZ_CHECK(f.src != f.dst, "flow " << f.id << " to itself");
        FUZZ_CHECK(f.sizeBytes >= 1, "flow " << f.id << " of size 0");
        FUZZ_CHECK(!f.start.IsStrictlyNegative(), "flow " << f.id << " starts before 0");
        FUZZ_CHECK(i == 0 || f.start >= flows[i - 1].start, "flow " << f.id << " out of order");
        hostMax = hostMax || f.src == std::numeric_limits<uint32_t>::max() ||
                  f.dst == std::numeric_limits<uint32_t>::max();
        late = late || f.start.GetPicoSeconds() > (int64_t(1) << 53);
    }

    std::ostringstream out;
    FlowList::Write(out, flows);
    std::vector<FlowSpec> again;
    {
        std::istringstream in(out.str());
        FUZZ_CHECK(FlowList::Parse(in, "written", again, error),
                   "Write() output does not parse: " << error << "\n"
                                                     << out.str());
    }
    FUZZ_CHECK(again == flows, "Write() then Parse() changed the flows");

    auto reader = CreateObject<FlowListReader>();
    reader->Open(std::make_unique<std::istringstream>(text), "fuzz");
    std::vector<FlowSpec> lazy = reader->GenerateAll();
    FUZZ_CHECK(lazy == flows, "FlowListReader read other flows than FlowList::Parse");
    reader->Dispose();

    if (!hostMax && !late && !flows.empty())
    {
        HtsimConnectionMatrix m = FlowList::ToHtsimMatrix(flows);
        std::stringstream cm;
        m.Write(cm);
        HtsimConnectionMatrix parsed;
        FUZZ_CHECK(HtsimConnectionMatrix::Parse(cm, "cm", parsed, error),
                   "the htsim matrix does not parse: " << error);
        FUZZ_CHECK(FlowList::FromHtsimMatrix(parsed) == flows,
                   "the flows changed through an htsim matrix");
    }
    return 0;
}
