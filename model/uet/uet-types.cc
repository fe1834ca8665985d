/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "uet-types.h"

#include "uet-ses-header.h"

namespace ns3
{

const char*
UetDeliveryModeName(UetDeliveryMode mode)
{
    switch (mode)
    {
    case UetDeliveryMode::RUD:
        return "RUD";
    case UetDeliveryMode::ROD:
        return "ROD";
    case UetDeliveryMode::RUDI:
        return "RUDI";
    case UetDeliveryMode::UUD:
        return "UUD";
    }
    return "?";
}

const char*
UetOperationName(UetOperation op)
{
    switch (op)
    {
    case UetOperation::WRITE:
        return "WRITE";
    case UetOperation::READ:
        return "READ";
    case UetOperation::SEND:
        return "SEND";
    case UetOperation::TAGGED_SEND:
        return "TAGGED_SEND";
    }
    return "?";
}

uint8_t
UetOperationOpcode(UetOperation op)
{
    switch (op)
    {
    case UetOperation::WRITE:
        return UetSesHeader::WRITE;
    case UetOperation::READ:
        return UetSesHeader::READ;
    case UetOperation::SEND:
        return UetSesHeader::SEND;
    case UetOperation::TAGGED_SEND:
        return UetSesHeader::TAGGED_SEND;
    }
    return UetSesHeader::NO_OP;
}

} // namespace ns3
