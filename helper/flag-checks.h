/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EDGE_LLM_FLAG_CHECKS_H
#define EDGE_LLM_FLAG_CHECKS_H

#include "ns3/data-rate.h"
#include "ns3/nstime.h"

#include <string>
#include <utility>
#include <vector>

namespace ns3
{
namespace edgellm
{

/**
 * \ingroup edge-llm
 * \brief The words of a refused flag.
 * \param flag the flag, without its dashes
 * \param value the value as given
 * \param allowed the allowed range or set, in words
 * \return "--flag = value is invalid; allowed: allowed"
 */
std::string FlagError(const std::string& flag,
                      const std::string& value,
                      const std::string& allowed);

/**
 * \brief Read a finite number, the whole text, without stopping the program.
 * \param text the text
 * \param [out] value the number read; unchanged on failure
 * \return true if the text is a finite number (not empty, nothing after it)
 */
bool ParseFiniteNumber(const std::string& text, double& value);

/**
 * \brief Read a data rate ("4.5Gbps", "100Mb/s", "1e9bps") without stopping the program.
 * \param text the text
 * \param [out] rate the rate read; unchanged on failure
 * \return true if the text is a data rate
 */
bool ParseDataRate(const std::string& text, DataRate& rate);

/**
 * \brief Read a time ("10ms", "2s", "0", a number alone being seconds) without stopping the
 * program, unlike Time's own constructor, which aborts on an unknown unit.
 * \param text the text
 * \param [out] time the time read; unchanged on failure
 * \return true if the text is a time
 */
bool ParseTime(const std::string& text, Time& time);

/**
 * \brief Read and check a rate flag: a rate > 0.
 * \param flag the flag, without its dashes
 * \param text its value, as given
 * \param [out] rate the rate read
 * \param example a valid value for the message, e.g. "4.5Gbps"
 * \return an empty string, or the flag's error
 */
std::string ReadRateFlag(const std::string& flag,
                         const std::string& text,
                         DataRate& rate,
                         const std::string& example = "4.5Gbps");

/**
 * \brief Read and check a time flag: a time >= 0 (zeroAllowed) or > 0.
 * \param flag the flag, without its dashes
 * \param text its value, as given
 * \param [out] time the time read
 * \param zeroAllowed whether 0 is a valid value
 * \param example a valid value for the message, e.g. "10ms"
 * \return an empty string, or the flag's error
 */
std::string ReadTimeFlag(const std::string& flag,
                         const std::string& text,
                         Time& time,
                         bool zeroAllowed,
                         const std::string& example);

/**
 * \brief Split a flag's comma-separated list.
 * \param text the flag's value
 * \return its items, in order; an empty item where the text has one (",," or a trailing
 *         comma), so that the item's check can name it; one empty item for an empty text
 */
std::vector<std::string> SplitList(const std::string& text);

/**
 * \ingroup edge-llm
 * \brief A numeric flag of a program, for CheckNumberFlags.
 */
struct NumberFlag
{
    std::string flag;    //!< its name, without dashes
    bool integer{false}; //!< digits only (a count); else any finite number
    std::string allowed; //!< its allowed range in words, e.g. "an integer in [1, 64]"
};

/**
 * \brief Refuse a numeric flag whose value is not a number, before CommandLine reads it:
 * ns-3's CommandLine would print its whole help without naming the flag's range, and would
 * read "-3" into an unsigned flag as 4294967293.
 * \param flags the program's numeric flags
 * \param argc the program's argc
 * \param argv the program's argv
 * \return an empty string, or the first bad flag's error (FlagError)
 */
std::string CheckNumberFlags(const std::vector<NumberFlag>& flags, int argc, char* argv[]);

/**
 * \brief Refuse a boolean flag whose value is neither true nor false, before CommandLine reads
 * it: CommandLine would print its whole help without naming the flag's values.
 * \param flags the program's boolean flags, without dashes
 * \param argc the program's argc
 * \param argv the program's argv
 * \return an empty string, or the first bad flag's error (FlagError); CommandLine's own
 *         spellings (t, f, 1, 0, any case, or the flag alone) are taken
 */
std::string CheckBooleanFlags(const std::vector<std::string>& flags, int argc, char* argv[]);

/**
 * \brief Refuse attribute defaults that a program's flags would override.
 *
 * A program that sets an attribute from one of its flags would silently replace a default the
 * user gave for it (--ns3::LlmEngine::PrefillCycle=0s, or Config::SetDefault). This finds
 * such a default: one named on the command line (even if it equals the registered value), or
 * one that differs from the value its TypeId registered.
 * \param flagAttributes pairs of a flag (without dashes) and the attribute it sets
 *        ("ns3::LlmEngine::PrefillCycle")
 * \param argc the program's argc
 * \param argv the program's argv
 * \return an empty string, or a message naming the attribute and the flag to use instead
 */
std::string CheckFlagAttributes(
    const std::vector<std::pair<std::string, std::string>>& flagAttributes,
    int argc,
    char* argv[]);

/**
 * \brief Make a program's output directory and check that a file can be written in it.
 *
 * Campaign tools (SEM, the edgellm sweeps) give every run a directory of its own; a directory
 * that cannot be made or written is refused before the run, not after it.
 * \param flag the flag that named the directory, without dashes ("outDir")
 * \param dir the directory; made with its parents when missing
 * \return an empty string, or an error naming the flag, the directory, what is allowed and
 *         the reason
 */
std::string PrepareOutDir(const std::string& flag, const std::string& dir);

} // namespace edgellm
} // namespace ns3

#endif /* EDGE_LLM_FLAG_CHECKS_H */
