/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "token-log.h"

#include "ns3/fatal-error.h"

#include <cinttypes>
#include <cstdio>
#include <stdexcept>

namespace ns3
{

TokenLog::TokenLog(const std::string& path)
    : m_file(path, std::ios::out | std::ios::trunc),
      m_os(&m_file)
{
    if (!m_file.is_open())
    {
        NS_FATAL_ERROR("TokenLog: cannot open " << path << " for writing");
    }
    *m_os << HEADER << '\n';
}

TokenLog::TokenLog(std::ostream& os)
    : m_os(&os)
{
    *m_os << HEADER << '\n';
}

void
TokenLog::SetScheme(const std::string& scheme)
{
    if (scheme.find_first_of(",\"\r\n") != std::string::npos)
    {
        throw std::invalid_argument("TokenLog scheme = \"" + scheme +
                                    "\" is invalid; allowed: text without commas, quotes or "
                                    "line breaks");
    }
    m_scheme = scheme;
}

const std::string&
TokenLog::GetScheme() const
{
    return m_scheme;
}

void
TokenLog::Write(uint64_t imsi,
                uint32_t tokenIndex,
                Time generated,
                Time delivered,
                uint16_t cellId,
                bool resent)
{
    *m_os << m_scheme << ',' << imsi << ',' << tokenIndex << ','
          << FormatSeconds(generated.GetNanoSeconds()) << ','
          << FormatSeconds(delivered.GetNanoSeconds()) << ',' << cellId << ','
          << (resent ? '1' : '0') << '\n';
    ++m_rows;
}

uint64_t
TokenLog::GetRows() const
{
    return m_rows;
}

bool
TokenLog::IsGood() const
{
    return m_os->good();
}

void
TokenLog::Flush()
{
    m_os->flush();
}

std::string
TokenLog::FormatSeconds(int64_t ns)
{
    // Integer arithmetic keeps every nanosecond however long the run; a double would not past
    // 2^53 ns.
    const bool negative = ns < 0;
    const uint64_t magnitude =
        negative ? static_cast<uint64_t>(-(ns + 1)) + 1 : static_cast<uint64_t>(ns);
    char text[40];
    std::snprintf(text,
                  sizeof(text),
                  "%s%" PRIu64 ".%09" PRIu64,
                  negative ? "-" : "",
                  magnitude / 1000000000u,
                  magnitude % 1000000000u);
    return text;
}

} // namespace ns3
