"""The libraries whose code faircompare's algorithms run, as references to cite with them.

A method run through a library is cited with its paper and the library
(:attr:`~faircompare.algorithms.base.FairEstimator.references`).
"""

from __future__ import annotations

from faircompare.bibliography import Reference

#: scikit-learn, whose classifiers are the baselines and every pipeline's last step.
SCIKIT_LEARN = Reference(
    key="pedregosa2011scikit",
    authors=(
        "Pedregosa, Fabian",
        "Varoquaux, Gaël",
        "Gramfort, Alexandre",
        "Michel, Vincent",
        "Thirion, Bertrand",
        "Grisel, Olivier",
        "Blondel, Mathieu",
        "Prettenhofer, Peter",
        "Weiss, Ron",
        "Dubourg, Vincent",
        "Vanderplas, Jake",
        "Passos, Alexandre",
        "Cournapeau, David",
        "Brucher, Matthieu",
        "Perrot, Matthieu",
        "Duchesnay, Édouard",
    ),
    title="Scikit-learn: Machine Learning in Python",
    year=2011,
    venue="Journal of Machine Learning Research",
    kind="article",
    volume="12",
    pages="2825-2830",
    url="https://jmlr.org/papers/v12/pedregosa11a.html",
)

#: fairlearn, whose reductions, threshold optimizer, correlation remover and adversarial
#: training run.
FAIRLEARN = Reference(
    key="weerts2023fairlearn",
    authors=(
        "Weerts, Hilde",
        "Dudík, Miroslav",
        "Edgar, Richard",
        "Jalali, Adrin",
        "Lutz, Roman",
        "Madaio, Michael",
    ),
    title="Fairlearn: Assessing and Improving Fairness of AI Systems",
    year=2023,
    venue="Journal of Machine Learning Research",
    kind="article",
    volume="24(257)",
    pages="1-8",
    url="https://jmlr.org/papers/v24/23-0389.html",
)

#: AI Fairness 360, whose pre-, in- and post-processing methods run.
AIF360 = Reference(
    key="bellamy2019aif360",
    authors=(
        "Bellamy, Rachel K. E.",
        "Dey, Kuntal",
        "Hind, Michael",
        "Hoffman, Samuel C.",
        "Houde, Stephanie",
        "Kannan, Kalapriya",
        "Lohia, Pranay",
        "Martino, Jacquelyn",
        "Mehta, Sameep",
        "Mojsilović, Aleksandra",
        "Nagar, Seema",
        "Ramamurthy, Karthikeyan Natesan",
        "Richards, John",
        "Saha, Diptikalyan",
        "Sattigeri, Prasanna",
        "Singh, Moninder",
        "Varshney, Kush R.",
        "Zhang, Yunfeng",
    ),
    title="AI Fairness 360: An extensible toolkit for detecting and mitigating algorithmic bias",
    year=2019,
    venue="IBM Journal of Research and Development",
    kind="article",
    volume="63(4/5)",
    pages="4:1-4:15",
    doi="10.1147/JRD.2019.2942287",
)

#: PyTorch, in which the neural networks are trained.
PYTORCH = Reference(
    key="paszke2019pytorch",
    authors=(
        "Paszke, Adam",
        "Gross, Sam",
        "Massa, Francisco",
        "Lerer, Adam",
        "Bradbury, James",
        "Chanan, Gregory",
        "Killeen, Trevor",
        "Lin, Zeming",
        "Gimelshein, Natalia",
        "Antiga, Luca",
        "Desmaison, Alban",
        "Köpf, Andreas",
        "Yang, Edward",
        "DeVito, Zach",
        "Raison, Martin",
        "Tejani, Alykhan",
        "Chilamkurthy, Sasank",
        "Steiner, Benoit",
        "Fang, Lu",
        "Bai, Junjie",
        "Chintala, Soumith",
    ),
    title="PyTorch: An Imperative Style, High-Performance Deep Learning Library",
    year=2019,
    venue="Advances in Neural Information Processing Systems 32 (NeurIPS 2019)",
    pages="8024-8035",
    url="https://arxiv.org/abs/1912.01703",
)
