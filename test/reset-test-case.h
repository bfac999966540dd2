/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EDGE_LLM_RESET_TEST_CASE_H
#define EDGE_LLM_RESET_TEST_CASE_H

#include "ns3/config.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/simulator.h"
#include "ns3/test.h"

#include <string>

namespace ns3
{
namespace edgellm
{

/**
 * \ingroup edge-llm-tests
 * \brief A case that leaves the process as it found it: once it has run, the simulator is
 * destroyed, the attribute defaults it set are reset and the run number is 1 again, so the
 * next case starts from the same state whatever this one did.
 */
class ResetTestCase : public TestCase
{
  public:
    /// \param name the case's name
    explicit ResetTestCase(const std::string& name)
        : TestCase(name)
    {
    }

  protected:
    void DoTeardown() override
    {
        Simulator::Destroy();
        Config::Reset();
        RngSeedManager::SetRun(1);
    }
};

} // namespace edgellm
} // namespace ns3

#endif /* EDGE_LLM_RESET_TEST_CASE_H */
