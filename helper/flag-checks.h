/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EDGE_LLM_FLAG_CHECKS_H
#define EDGE_LLM_FLAG_CHECKS_H

#include "ns3/command-line.h"
#include "ns3/data-rate.h"
#include "ns3/nstime.h"

#include <limits>
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
 * \return true if the text is a finite decimal number (not empty, nothing around it, no "inf",
 *         "nan" or hexadecimal, which CommandLine's reader would not take)
 */
bool ParseFiniteNumber(const std::string& text, double& value);

/**
 * \brief Read a data rate ("4.5Gbps", "100Mb/s") without stopping the program.
 * \param text the text
 * \param [out] rate the rate read; unchanged on failure
 * \return true if the text is a data rate with a unit, below 2^64 b/s (DataRateTextProblem)
 */
bool ParseDataRate(const std::string& text, DataRate& rate);

/**
 * \brief Read a time ("10ms", "2s", "0", a number alone being seconds) without stopping the
 * program, unlike Time's own constructor, which aborts on an unknown unit.
 * \param text the text
 * \param [out] time the time read; unchanged on failure
 * \return true if the text is a time within ns-3's range (Time wraps around beyond it)
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
 *
 * A negative time is refused, even one that would round to 0 ("-1e-20s"), and so is a
 * positive time that would round to 0 ("1e-20s"): 0 often means something else (no cycle,
 * wait for the whole cache).
 *
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
 * \brief Check a RAN's name, as the programs' --ran takes it.
 * \param flag the flag, without its dashes
 * \param ran its value
 * \return an empty string, or the flag's error: a name other than lte and nr, or nr in a
 *         build of the module without 5G-LENA's nr module
 */
std::string CheckRanFlag(const std::string& flag, const std::string& ran);

/**
 * \brief Split a flag's comma-separated list.
 * \param text the flag's value
 * \return its items, in order; an empty item where the text has one (",," or a trailing
 *         comma), so that the item's check can name it; one empty item for an empty text
 */
std::vector<std::string> SplitList(const std::string& text);

/**
 * \ingroup edge-llm
 * \brief A numeric flag of a program, for CheckNumberFlags: its kind and its range.
 */
struct NumberFlag
{
    std::string flag;    //!< its name, without dashes
    bool integer{false}; //!< digits only (a count); else any finite decimal number
    std::string allowed; //!< its allowed range in words, e.g. "an integer in [1, 64]"
    double min{-std::numeric_limits<double>::infinity()}; //!< the smallest value allowed
    double max{std::numeric_limits<double>::infinity()};  //!< the largest value allowed
    bool aboveMin{false}; //!< min itself is refused: the range is (min, max]
};

/**
 * \brief Refuse a numeric flag whose value is not a number of its range, as typed, before
 * CommandLine reads it: CommandLine would print its whole help without naming the flag's
 * range, read "-3" into an unsigned flag as 4294967293, and a value past a type's range
 * would overflow where it is converted.
 *
 * An integer flag above 4294967295 is refused whatever its max: the programs read counts
 * into 32 bits.
 *
 * \param flags the program's numeric flags
 * \param argc the program's argc
 * \param argv the program's argv
 * \return an empty string, or the first bad flag's error (FlagError)
 */
std::string CheckNumberFlags(const std::vector<NumberFlag>& flags, int argc, char* argv[]);

/**
 * \brief Refuse one numeric text as typed, as CheckNumberFlags refuses a flag's: an item of
 * a list flag, for one.
 * \param flag the flag's kind and range
 * \param value the text
 * \return an empty string, or the error (FlagError with the flag's allowed words)
 */
std::string CheckNumber(const NumberFlag& flag, const std::string& value);

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
 * \brief Check a program's command line before CommandLine reads it, so that a bad argument
 * is refused with one line that names it, never with CommandLine's whole help or an abort.
 *
 * Each argument, in order:
 * - it is "--name=value" (or "-name=value"; the value may be left out of a boolean flag);
 *   a word without dashes, which CommandLine would ignore, is refused;
 * - a name given twice is refused, since CommandLine would keep the last value and ignore a
 *   bad first one;
 * - an attribute ("--ns3::Class::Attribute=value") or GlobalValue ("--RngRun=1") is tried as
 *   ns-3 would take it (AttributeSettingRefusal);
 * - any other name must be a flag of the program (its help's Program Options), with a
 *   value, and a numeric or boolean flag's value is checked as typed (CheckNumberFlags,
 *   CheckBooleanFlags).
 * CommandLine's own requests (--help, --PrintHelp, --PrintAttributes=... and the others of
 * its General Arguments) are left to it.
 *
 * \param cmd the program's CommandLine, with every flag added
 * \param numbers the program's numeric flags
 * \param booleans the program's boolean flags, without dashes
 * \param argc the program's argc
 * \param argv the program's argv
 * \return an empty string, or the first bad argument's refusal, one line
 */
std::string CheckArguments(const CommandLine& cmd,
                           const std::vector<NumberFlag>& numbers,
                           const std::vector<std::string>& booleans,
                           int argc,
                           char* argv[]);

/**
 * \param flag a flag, without dashes
 * \param argc the program's argc
 * \param argv the program's argv
 * \return whether the command line gives the flag (--flag=value, -flag=value or --flag)
 */
bool IsFlagGiven(const std::string& flag, int argc, char* argv[]);

/**
 * \param flag a flag, without dashes
 * \param argc the program's argc
 * \param argv the program's argv
 * \return the value the command line gives the flag, as typed; empty if it gives none
 */
std::string GivenValue(const std::string& flag, int argc, char* argv[]);

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
