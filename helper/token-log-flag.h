/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EDGE_LLM_TOKEN_LOG_FLAG_H
#define EDGE_LLM_TOKEN_LOG_FLAG_H

#include "ns3/application-container.h"
#include "ns3/ptr.h"
#include "ns3/token-log.h"

#include <string>

namespace ns3
{
namespace edgellm
{

/**
 * \ingroup edge-llm
 * \brief Open the TokenLog of a program's --tokensCsv flag.
 *
 * The header is written and flushed now, so that a file that takes no bytes (a full disk,
 * /dev/full) is refused before the run, not found out after it.
 * \param flag the flag's name, without dashes
 * \param path its value: the file to write
 * \param [out] error the flag's refusal, one line, if the file cannot be written; else empty
 * \return the log, or null if error is set
 */
Ptr<TokenLog> OpenTokenLogFlag(const std::string& flag,
                               const std::string& path,
                               std::string& error);

/**
 * \brief Have every EdgeLlmClient of a container write its tokens to a log.
 * \param log the log (null: nothing happens)
 * \param scheme the scheme its rows name from now on
 * \param clients the clients
 */
void LogTokensOf(Ptr<TokenLog> log, const std::string& scheme, const ApplicationContainer& clients);

/**
 * \brief Flush a --tokensCsv log at the end of a run.
 * \param flag the flag's name, without dashes
 * \param path its value
 * \param log the log (null: nothing to do)
 * \return the flag's refusal if writing the file failed, else an empty string
 */
std::string CloseTokenLogFlag(const std::string& flag, const std::string& path, Ptr<TokenLog> log);

} // namespace edgellm
} // namespace ns3

#endif /* EDGE_LLM_TOKEN_LOG_FLAG_H */
