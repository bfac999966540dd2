/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EDGE_LLM_TEST_PROGRAM_ARGS_H
#define EDGE_LLM_TEST_PROGRAM_ARGS_H

// A program's command line, as main() gets it, for the tests of flag readers.

#include <string>
#include <utility>
#include <vector>

namespace ns3
{
namespace edgellm
{
namespace test
{

/// argc and argv of "program" followed by some arguments; argv lives as long as this.
class ProgramArgs
{
  public:
    /// \param args the arguments after the program's name
    explicit ProgramArgs(std::vector<std::string> args)
        : m_args(std::move(args))
    {
        m_args.insert(m_args.begin(), "program");
        for (std::string& a : m_args)
        {
            m_argv.push_back(a.data());
        }
    }

    ProgramArgs(const ProgramArgs&) = delete;
    ProgramArgs& operator=(const ProgramArgs&) = delete;

    /// \return argc
    int Argc() const
    {
        return static_cast<int>(m_argv.size());
    }

    /// \return argv
    char** Argv()
    {
        return m_argv.data();
    }

  private:
    std::vector<std::string> m_args; //!< the words
    std::vector<char*> m_argv;       //!< pointers into them
};

} // namespace test
} // namespace edgellm
} // namespace ns3

#endif // EDGE_LLM_TEST_PROGRAM_ARGS_H
