/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EDGE_LLM_EXAMPLE_PROGRESS_H
#define EDGE_LLM_EXAMPLE_PROGRESS_H

// How the examples show a run's progress.

#include "ns3/nstime.h"
#include "ns3/show-progress.h"

#include <iostream>
#include <memory>

/**
 * \brief Wall-clock progress on stderr every 10 s, so that a long run is not silent until its
 * end; it stops when the returned object goes.
 * \param quiet the example's --quiet: no progress
 * \return the progress meter, or null when quiet
 */
inline std::unique_ptr<ns3::ShowProgress>
StartProgress(bool quiet)
{
    return quiet ? nullptr : std::make_unique<ns3::ShowProgress>(ns3::Seconds(10), std::cerr);
}

#endif /* EDGE_LLM_EXAMPLE_PROGRESS_H */
