/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EDGE_LLM_TEST_INVALID_MESSAGE_H
#define EDGE_LLM_TEST_INVALID_MESSAGE_H

#include <gtest/gtest.h>
#include <stdexcept>
#include <string>

namespace edgellmtest
{

/**
 * Runs f, expects it to throw std::invalid_argument, and returns the message, so that a test
 * can check which field and range it names.
 */
template <typename F>
std::string
InvalidMessage(F f)
{
    try
    {
        f();
    }
    catch (const std::invalid_argument& e)
    {
        return e.what();
    }
    ADD_FAILURE() << "no std::invalid_argument thrown";
    return "";
}

} // namespace edgellmtest

#endif /* EDGE_LLM_TEST_INVALID_MESSAGE_H */
