/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Parses its command line as an example would, and does nothing else: the Python package runs
// it with "--ns3::Class::Attribute=value" to learn whether ns-3 accepts that default, and
// ns-3's own message when it does not (exit 1, or an abort), without risking the interpreter.

#include "ns3/command-line.h"

int
main(int argc, char* argv[])
{
    ns3::CommandLine cmd(__FILE__);
    cmd.Parse(argc, argv);
    return 0;
}
