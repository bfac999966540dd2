/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "handover-scheme-flag.h"

#include "flag-checks.h"

#include "ns3/handover-scheme-registry.h"
#include "ns3/input-checks.h"

#include <algorithm>
#include <stdexcept>

namespace ns3
{

HandoverSchemeFlag::HandoverSchemeFlag(std::vector<std::string> all, std::string value)
    : m_all(std::move(all)),
      m_value(std::move(value))
{
}

void
HandoverSchemeFlag::AddTo(CommandLine& cmd, const std::string& name)
{
    m_name = name;
    cmd.AddValue(name, GetHelp(), m_value);
}

std::string
HandoverSchemeFlag::GetHelp() const
{
    const std::string names = edgellm::JoinNames(edgellm::HandoverSchemeNames());
    if (m_all.empty())
    {
        return "the handover scheme, one of " + names;
    }
    return "the handover scheme: " + names + ", or all (" + edgellm::JoinNames(m_all) +
           "); a comma-separated list runs each";
}

const std::string&
HandoverSchemeFlag::GetValue() const
{
    return m_value;
}

std::vector<std::string>
HandoverSchemeFlag::GetSchemes() const
{
    const std::vector<std::string> names = edgellm::HandoverSchemeNames();
    const auto refuse = [this](const std::string& given, const std::string& allowed) {
        return std::invalid_argument("--" + m_name + " = " + (given.empty() ? "\"\"" : given) +
                                     " is invalid; allowed: " + allowed);
    };
    std::vector<std::string> schemes;
    if (m_all.empty())
    {
        // This program runs one scheme: "all" and lists are not offered, so not taken either.
        if (std::find(names.begin(), names.end(), m_value) == names.end())
        {
            throw refuse(m_value, "one of " + edgellm::JoinNames(names));
        }
        schemes.push_back(m_value);
        return schemes;
    }
    for (const std::string& s : edgellm::SplitList(m_value))
    {
        if (s == "all")
        {
            schemes.insert(schemes.end(), m_all.begin(), m_all.end());
        }
        else if (std::find(names.begin(), names.end(), s) == names.end())
        {
            throw refuse(s,
                         edgellm::JoinNames(names) + " or all, or a comma-separated list of them");
        }
        else
        {
            schemes.push_back(s);
        }
    }
    return schemes;
}

} // namespace ns3
