/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "token-log-flag.h"

#include "flag-checks.h"

#include "ns3/edge-llm-client.h"

#include <fstream>

namespace ns3
{
namespace edgellm
{

Ptr<TokenLog>
OpenTokenLogFlag(const std::string& flag, const std::string& path, std::string& error)
{
    error.clear();
    if (!std::ofstream(path, std::ios::app))
    {
        error = FlagError(flag, path, "a file that can be written");
        return nullptr;
    }
    Ptr<TokenLog> log = Create<TokenLog>(path);
    log->Flush();
    if (!log->IsGood())
    {
        error = FlagError(flag, path, "a file that can be written") + " (writing it failed)";
        return nullptr;
    }
    return log;
}

void
LogTokensOf(Ptr<TokenLog> log, const std::string& scheme, const ApplicationContainer& clients)
{
    if (!log)
    {
        return;
    }
    log->SetScheme(scheme);
    for (uint32_t i = 0; i < clients.GetN(); ++i)
    {
        if (Ptr<EdgeLlmClient> client = DynamicCast<EdgeLlmClient>(clients.Get(i)))
        {
            client->SetTokenLog(log);
        }
    }
}

std::string
CloseTokenLogFlag(const std::string& flag, const std::string& path, Ptr<TokenLog> log)
{
    if (!log)
    {
        return "";
    }
    log->Flush();
    return log->IsGood()
               ? ""
               : FlagError(flag, path, "a file that can be written") + " (writing it failed)";
}

} // namespace edgellm
} // namespace ns3
