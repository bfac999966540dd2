/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Test runner of the standalone build: the edge-llm TestSuites are compiled into this
// program, and ns-3's TestRunner takes the usual arguments (--suite=edge-llm, --list, ...).

#include "ns3/test.h"

int
main(int argc, char** argv)
{
    return ns3::TestRunner::Run(argc, argv);
}
