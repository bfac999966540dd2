/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EDGE_LLM_FATAL_ON_INVALID_H
#define EDGE_LLM_FATAL_ON_INVALID_H

#include "ns3/fatal-error.h"

#include <exception>
#include <stdexcept>
#include <string>

namespace ns3
{
namespace edgellm
{

/**
 * \ingroup edge-llm
 * \brief Call a pure model, and stop the run if it refuses its input.
 *
 * The pure models throw std::invalid_argument naming the field and its range; in simulation
 * code that is a configuration error, reported with NS_FATAL_ERROR and the same message. The
 * run stops outside the exception handler, so the exception is not reported a second time.
 *
 * \param who the object or program whose input it is, e.g. "ns3::KvCacheModel"
 * \param call what to call
 * \return what call returns
 */
template <typename Call>
auto
CallOrFatal(const std::string& who, Call call) -> decltype(call())
{
    std::string error;
    try
    {
        return call();
    }
    catch (const std::invalid_argument& e)
    {
        error = e.what();
    }
    NS_FATAL_ERROR(who << ": " << error);
    // NS_FATAL_ERROR terminates behind a test of its argument that an unoptimised build does
    // not fold, so without this the compiler warns (-Wreturn-type at -O0, an error under ns-3's
    // debug profile, which treats warnings as errors).
    std::terminate();
}

} // namespace edgellm
} // namespace ns3

#endif /* EDGE_LLM_FATAL_ON_INVALID_H */
