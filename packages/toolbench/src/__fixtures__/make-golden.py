"""Regenerates the golden files in this folder from the ToolBench fixtures beside it.

Run from this folder with Python 3:  python3 make-golden.py
The rendering follows StableToolBench `toolbench/inference/LLM/tool_llama_model.py` L111-118 and
`toolbench/utils.py` L9-15 (commit aa4ed9f4737ad98bd706663f01d63623c3427812; see README.md here).
Python is used on purpose: `str(functions)` is the real Python repr the TypeScript code must match.
An assistant turn that called a function is written as the raw ToolLLaMA prediction it stands for:
"Thought: <content>\nAction: <name>\nAction Input: <arguments>".
"""
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
FIX = HERE
SOURCES = [
    "StableToolBench/data_example/answer/virtual_chatgpt_cot/G1_instruction/1073_CoT@1.json",
    "StableToolBench/data_example/answer/virtual_chatgpt_dfs/G1_instruction/1073_DFS_woFilter_w2.json",
    "ToolBench/data_example/answer/G1_answer/10_ChatGPT_DFS_woFilter_w2.json",
]
SENTENCE = "with a function call to actually excute your step."
ROLES = {"system": "System", "user": "User", "function": "Function", "tool": "Function", "assistant": "Assistant"}


def system_text(content, functions):
    assert SENTENCE in content
    content = content.replace(SENTENCE, SENTENCE + " Your output should follow this format:\nThought:\nAction\nAction Input:\n")
    return content + "\nSpecifically, you have access to the following APIs: " + str(functions)


def assistant_text(message):
    call = message.get("function_call")
    if call is None:
        return message.get("content") or ""
    return "Thought: " + (message.get("content") or "") + "\nAction: " + call["name"] + "\nAction Input: " + call["arguments"]


def prompt_for(history, functions):
    out = ""
    for message in history:
        role = ROLES[message["role"]]
        if role == "System":
            content = system_text(message["content"], functions)
        elif role == "Assistant":
            content = assistant_text(message)
        else:
            content = message["content"]
        out += f"{role}: {content}\n"
    return out + "Assistant:\n"


def main():
    golden = []
    for source in SOURCES:
        data = json.load(open(os.path.join(FIX, source), encoding="utf-8"))
        generation = data["answer_generation"]
        history = generation["train_messages"][-1]
        # one prompt per assistant turn: the history before it
        for index, message in enumerate(history):
            if message["role"] == "assistant":
                golden.append({
                    "source": source,
                    "beforeMessage": index,
                    "prompt": prompt_for(history[:index], generation["function"]),
                })
    with open(os.path.join(HERE, "toolllama-prompts.golden.json"), "w", encoding="utf-8") as f:
        json.dump(golden, f, ensure_ascii=False, indent=1)
        f.write("\n")
    print(f"wrote {len(golden)} prompts")


main()
