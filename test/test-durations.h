/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EDGE_LLM_TEST_DURATIONS_H
#define EDGE_LLM_TEST_DURATIONS_H

#include "ns3/test.h"

#ifndef EDGE_LLM_NS3_VERSION
#error "EDGE_LLM_NS3_VERSION (major * 100 + minor of ns-3) is defined by the module's build"
#endif

namespace ns3
{
namespace edgellm
{

// ns-3.42 renamed TestCase::TestDuration to the scoped TestCase::Duration.
#if EDGE_LLM_NS3_VERSION >= 342
/// A test case of a few seconds at most: run by default
constexpr TestCase::Duration TEST_QUICK = TestCase::Duration::QUICK;
/// A long test case: run only when asked for (test.py -f EXTENSIVE)
constexpr TestCase::Duration TEST_EXTENSIVE = TestCase::Duration::EXTENSIVE;
#else
/// A test case of a few seconds at most: run by default
constexpr TestCase::TestDuration TEST_QUICK = TestCase::QUICK;
/// A long test case: run only when asked for (test.py -f EXTENSIVE)
constexpr TestCase::TestDuration TEST_EXTENSIVE = TestCase::EXTENSIVE;
#endif

} // namespace edgellm
} // namespace ns3

#endif // EDGE_LLM_TEST_DURATIONS_H
