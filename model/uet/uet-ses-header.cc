/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "uet-ses-header.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(UetSesHeader);

TypeId
UetSesHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::UetSesHeader").SetParent<Header>().SetGroupName("AiFabric");
    return tid;
}

void
UetSesHeader::Serialize(Buffer::Iterator start) const
{
    uint8_t b[MAX_SIZE];
    Write(b);
    start.Write(b, GetSerializedSize());
}

uint32_t
UetSesHeader::Deserialize(Buffer::Iterator start)
{
    uint8_t b[MAX_SIZE];
    start.Read(b, GetSerializedSize());
    return Read(b);
}

const char*
UetSesHeader::OpcodeName(uint8_t op)
{
    static const char* const names[] = {"NO_OP",
                                        "WRITE",
                                        "READ",
                                        "ATOMIC",
                                        "FETCHING_ATOMIC",
                                        "SEND",
                                        "RENDEZVOUS_SEND",
                                        "DATAGRAM_SEND",
                                        "DEFERRABLE_SEND",
                                        "TAGGED_SEND",
                                        "RENDEZVOUS_TSEND",
                                        "DEFERRABLE_TSEND",
                                        "DEFERRABLE_RTR",
                                        "TSEND_ATOMIC",
                                        "TSEND_FETCH_ATOMIC",
                                        "MSG_ERROR"};
    return op < sizeof(names) / sizeof(names[0]) ? names[op] : "UNKNOWN";
}

const char*
UetSesHeader::ResponseOpcodeName(uint8_t op)
{
    static const char* const names[] = {"DEFAULT_RESPONSE",
                                        "RESPONSE",
                                        "RESPONSE_W_DATA",
                                        "NO_RESPONSE"};
    return op < sizeof(names) / sizeof(names[0]) ? names[op] : "UNKNOWN";
}

const char*
UetSesHeader::ReturnCodeName(uint8_t rc)
{
    static const char* const names[] = {"NULL",
                                        "OK",
                                        "BAD_GENERATION",
                                        "DISABLED",
                                        "DISABLED_GEN",
                                        "NO_MATCH",
                                        "UNSUPPORTED_OP",
                                        "UNSUPPORTED_SIZE",
                                        "AT_INVALID",
                                        "AT_PERM",
                                        "AT_ATS_ERROR",
                                        "AT_NO_TRANS",
                                        "AT_OUT_OF_RANGE",
                                        "HOST_POISONED",
                                        "HOST_UNSUCCESS_CMPL",
                                        "AMO_UNSUPPORTED_OP",
                                        "AMO_UNSUPPORTED_DT",
                                        "AMO_UNSUPPORTED_SIZE",
                                        "AMO_UNALIGNED",
                                        "AMO_FP_NAN",
                                        "AMO_FP_UNDERFLOW",
                                        "AMO_FP_OVERFLOW",
                                        "AMO_FP_INEXACT",
                                        "PERM_VIOLATION",
                                        "OP_VIOLATION",
                                        "BAD_INDEX",
                                        "BAD_PID",
                                        "BAD_JOB_ID",
                                        "BAD_MKEY",
                                        "BAD_ADDR",
                                        "CANCELLED",
                                        "UNDELIVERABLE",
                                        "UNCOR",
                                        "UNCOR_TRNSNT",
                                        "TOO_LONG",
                                        "INITIATOR_ERR",
                                        "DROPPED"};
    return rc < sizeof(names) / sizeof(names[0]) ? names[rc] : "UNKNOWN";
}

} // namespace ns3
