/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EDGE_LLM_HANDOVER_SCHEME_FLAG_H
#define EDGE_LLM_HANDOVER_SCHEME_FLAG_H

#include "ns3/command-line.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup edge-llm
 * \brief The --scheme flag of a program: registered handover schemes, a comma-separated list
 * of them, or "all"; or, for a program that runs one scheme, exactly one of them.
 *
 * Its help lists every scheme registered with ns-3 when the flag is added, the module's and
 * any a program defines itself (a HandoverScheduler subclass with NS_OBJECT_ENSURE_REGISTERED),
 * so a new scheme needs no change here.
 */
class HandoverSchemeFlag
{
  public:
    /**
     * \param all the schemes "all" runs, in that order; empty: the flag takes exactly one
     *        scheme (no "all", no list)
     * \param value the default value
     */
    explicit HandoverSchemeFlag(std::vector<std::string> all, std::string value = "all");

    /**
     * \brief Add --scheme to a command line.
     * \param cmd the command line
     * \param name the flag's name
     */
    void AddTo(CommandLine& cmd, const std::string& name = "scheme");

    /// \return the flag's help: the registered schemes, and what "all" is (if it takes "all")
    std::string GetHelp() const;

    /// \return the flag's value, as given
    const std::string& GetValue() const;

    /**
     * \brief The schemes to run: the comma-separated names given, each "all" expanded.
     * \return the names; throws std::invalid_argument with "--<name> = <value> is invalid;
     *         allowed: ..." for a name that is not registered, and, for a flag that takes
     *         one scheme, for "all" or a list
     */
    std::vector<std::string> GetSchemes() const;

  private:
    std::vector<std::string> m_all; //!< what "all" means
    std::string m_value;            //!< the value
    std::string m_name{"scheme"};   //!< the flag's name
};

} // namespace ns3

#endif /* EDGE_LLM_HANDOVER_SCHEME_FLAG_H */
